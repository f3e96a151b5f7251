/** Shared pieces of the message tests: the demo organization's ids, and short ways to send, read and check messages. */
import type { Api, ApiResponse } from './client.js';
import { world } from './world.js';
import type { Test } from 'tap';

export { VERONA, DENMARK, SCOTLAND, CORE_TEAM, MODERATION, BOT } from './demo-ids.js';
export const NEWEST = 10000000000000000;

export const MESSAGE_FIELDS = [
  'avatar_url', 'client', 'content', 'content_type', 'display_recipient', 'flags', 'id', 'is_me_message', 'reactions',
  'recipient_id', 'sender_email', 'sender_full_name', 'sender_id', 'sender_realm_str', 'subject', 'submessages',
  'timestamp', 'topic_links', 'type',
];

/** The fake clock the message tests run on: every subtest starts at this instant. */
export const MESSAGES_CLOCK_START = Date.UTC(2026, 0, 1, 12, 0, 0);

/** A fresh demo organization on the message tests' fake clock. */
export const messageWorld = (t: Test) => world(t, { clockStart: MESSAGES_CLOCK_START });

/** The id of a message the request sent; fails loudly otherwise. */
export function sentId(response: ApiResponse): number {
  if (response.status !== 200 || typeof response.body.id !== 'number') throw new Error(`send failed: ${JSON.stringify(response.body)}`);
  return response.body.id;
}

export const send = async (client: Api, to: string | number, topic: string, content: string, extra: Record<string, unknown> = {}) =>
  sentId(await client.post('/messages', { type: 'stream', to, topic, content, ...extra }));
export const sendDm = async (client: Api, to: unknown, content: string, extra: Record<string, unknown> = {}) =>
  sentId(await client.post('/messages', { type: 'direct', to, content, ...extra }));
export const message = async (client: Api, id: number, params: Record<string, unknown> = {}) => (await client.get(`/messages/${id}`, params)).body.message;
export const flagsOf = async (client: Api, id: number) => (await message(client, id)).flags as string[];
export const fetchIds = async (client: Api, params: Record<string, unknown>) => {
  const response = await client.get('/messages', params);
  if (response.status !== 200) throw new Error(`fetch failed: ${JSON.stringify(response.body)}`);
  return (response.body.messages as { id: number }[]).map((m) => m.id);
};
export const error = (response: ApiResponse) => [response.status, response.body.code, response.body.msg];
export const invalidMessage = [400, 'BAD_REQUEST', 'Invalid message(s)'];
