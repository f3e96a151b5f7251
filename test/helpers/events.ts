/** Shared pieces of the real-time events tests: registering queues, taking their events, and waiting without timing luck. */
import type { Test } from 'tap';
import { fileURLToPath } from 'node:url';
import type { Api, ApiResponse, Params } from './client.js';
import type { TestServer } from './server.js';
import type { EventQueue } from '../../src/events/event-queue.js';

export { IAGO, HAMLET, OTHELLO, CORDELIA, VERONA, DENMARK, SCOTLAND } from './demo-ids.js';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The pause before look number `look` (from 0) of a wait that looks over HTTP: 10 ms, growing by
 * half up to 100 ms. Each look costs the client and the server a request; a wait of seconds (a
 * delivery due on the real clock) took hundreds of them at a fixed 10 ms.
 */
export const pollPause = (look: number) => Math.min(100, Math.round(10 * 1.5 ** look));

/** A registered queue as a client sees it: who polls it, its id, and the newest event id seen. */
export interface Queue {
  api: Api;
  id: string;
  last: number;
}

export async function register(api: Api, params: Params = {}): Promise<Queue> {
  const response = await api.post('/register', params);
  if (response.status !== 200) throw new Error(`register failed: ${JSON.stringify(response.body)}`);
  return { api, id: response.body.queue_id, last: response.body.last_event_id };
}

/**
 * Everything the queue holds now (events are delivered before the write that caused them is
 * answered, so a non-blocking poll right after a write sees its events). Heartbeats are left out.
 */
export async function take(queue: Queue): Promise<any[]> {
  const response = await queue.api.get('/events', { queue_id: queue.id, last_event_id: queue.last, dont_block: true });
  if (response.status !== 200) throw new Error(`poll failed: ${JSON.stringify(response.body)}`);
  const events: any[] = response.body.events;
  for (const event of events) queue.last = Math.max(queue.last, event.id);
  return events.filter((event) => event.type !== 'heartbeat');
}

/**
 * What the queue receives until `done` holds for all of it (bounded). For the events of a write
 * made outside a request (a scheduled delivery, a reminder): its in-memory change can be read a
 * moment before the write is durable and its events are delivered, so one `take` may come early.
 */
export async function takeUntil(queue: Queue, done: (events: any[]) => boolean, what: string, ms = 60_000): Promise<any[]> {
  const until = Date.now() + ms;
  const events: any[] = [];
  for (let look = 0; ; look++) {
    events.push(...(await take(queue)));
    if (done(events)) return events;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(events).slice(0, 500)}`);
    await delay(pollPause(look));
  }
}

/** A blocking poll, answered when an event arrives (or a heartbeat is due). */
export function longPoll(queue: Queue, lastEventId = queue.last): Promise<ApiResponse> {
  return queue.api.get('/events', { queue_id: queue.id, last_event_id: lastEventId, dont_block: false });
}

/** 'pending' when the promise has not settled within `ms`. */
export async function settledWithin<T>(promise: Promise<T>, ms: number): Promise<T | 'pending'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'pending'>((resolve) => (timer = setTimeout(() => resolve('pending'), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Waits (bounded generously: a loaded machine can be ten times slower) for a condition on the server's state. */
export async function waitFor(condition: () => boolean, what: string, ms = 60_000): Promise<void> {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await delay(10);
  }
}

export function serverQueue(server: TestServer, queue: Queue, userId: number): EventQueue | undefined {
  try {
    return server.services.queues.get(queue.id, userId);
  } catch {
    return undefined;
  }
}

export const sorted = <T>(list: T[]) => [...list].sort();
export const ofType = (events: any[], type: string) => events.filter((event) => event.type === type);

export function badQueue(t: Test, response: ApiResponse, queueId: string, what: string): void {
  t.equal(response.status, 400, `${what}: HTTP 400`);
  t.same(response.body, { result: 'error', msg: `Bad event queue ID: ${queueId}`, code: 'BAD_EVENT_QUEUE_ID', queue_id: queueId }, what);
}

export async function send(api: Api, to: string | number[], content: string, topic = 'events', extra: Params = {}): Promise<number> {
  const params: Params = Array.isArray(to) ? { type: 'direct', to, content, ...extra } : { type: 'stream', to, topic, content, ...extra };
  const response = await api.post('/messages', params);
  if (response.status !== 200) throw new Error(`send failed: ${JSON.stringify(response.body)}`);
  return response.body.id;
}

/** The keys Zulip's message dict has for a channel message (§3.1). */
export const MESSAGE_KEYS = [
  'avatar_url', 'client', 'content', 'content_type', 'display_recipient', 'id', 'is_me_message', 'reactions', 'recipient_id',
  'sender_email', 'sender_full_name', 'sender_id', 'sender_realm_str', 'stream_id', 'subject', 'submessages', 'timestamp',
  'topic_links', 'type',
];

