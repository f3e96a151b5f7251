/**
 * The cut-over from a row per recipient to read marks: a data directory written by the version
 * before (test/fixtures/per-recipient-rows, made by make-per-recipient-rows.mjs) opens with this
 * one and answers exactly what that version answered about it; new messages then use the marks.
 */
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'tap';
import { REPO_ROOT } from '../helpers/events.js';
import { clientFor, startTestServer, tempDataDir, type TestServer } from '../helpers/server.js';
import type { Api } from '../helpers/client.js';

const FIXTURE = join(REPO_ROOT, 'test/fixtures/per-recipient-rows');
const PEOPLE = ['iago', 'hamlet', 'othello', 'cordelia'] as const;

interface Answers {
  messages: [number, string[]][];
  unread: number[];
  unread_msgs: unknown;
  starred_messages: number[];
  max_message_id: number;
  me_max_message_id: number;
}

async function answers(client: Api): Promise<Answers> {
  const newest = { anchor: 'newest', num_before: 100, num_after: 0 };
  const all = await client.get('/messages', { ...newest, narrow: [] });
  const unread = await client.get('/messages', { ...newest, narrow: [{ operator: 'is', operand: 'unread' }] });
  const state = await client.post('/register', { fetch_event_types: ['message', 'update_message_flags', 'starred_messages'] });
  await client.delete('/events', { queue_id: state.body.queue_id });
  const me = await client.get('/users/me');
  return {
    messages: all.body.messages.map((m: { id: number; flags: string[] }) => [m.id, m.flags]),
    unread: unread.body.messages.map((m: { id: number }) => m.id),
    unread_msgs: state.body.unread_msgs,
    starred_messages: state.body.starred_messages,
    max_message_id: state.body.max_message_id,
    me_max_message_id: me.body.max_message_id,
  };
}

test('a data directory with a row per recipient opens with read marks and answers as before', async (t) => {
  const expected = JSON.parse(readFileSync(join(FIXTURE, 'expected.json'), 'utf8')) as { denmark: number[]; users: Record<string, Answers> };
  const dataDir = tempDataDir();
  cpSync(join(FIXTURE, 'data'), dataDir, { recursive: true });
  let server: TestServer = await startTestServer({}, { dataDir });
  t.teardown(() => server.destroy());
  const newestOld = Math.max(...expected.users.hamlet!.messages.map(([id]) => id));
  const cutOver = server.services.readMarks.cutOver;
  t.ok(cutOver !== undefined && cutOver > newestOld, 'the cut-over lies after every stored message');
  for (const who of PEOPLE) t.same(await answers(clientFor(server, `${who}@example.com`)), expected.users[who], `${who} sees what the old version showed`);

  // New messages use the marks; old ones keep their rows, and both answer together.
  const hamlet = clientFor(server, 'hamlet@example.com');
  const othello = clientFor(server, 'othello@example.com');
  const fresh = (await hamlet.post('/messages', { type: 'stream', to: 'Denmark', topic: 'after', content: 'after the cut-over' })).body.id as number;
  t.ok(server.services.messages.get(fresh)!.userIds.length === 0, 'no row per recipient for the new message');
  const unreadBefore = expected.users.othello!.unread;
  const unreadNow = (await othello.get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow: [{ operator: 'is', operand: 'unread' }] })).body.messages.map((m: { id: number }) => m.id);
  t.same(unreadNow, [...unreadBefore, fresh]);
  t.equal((await othello.get('/users/me')).body.max_message_id, fresh);
  await othello.post('/mark_all_as_read', {});
  const state = await answers(othello);
  t.same(state.unread, []);
  t.same(state.messages.filter(([, flags]) => !flags.includes('read')), [], 'old rows and new marks are all read');

  // The cut-over happens once.
  server = await server.restart();
  t.equal(server.services.readMarks.cutOver, cutOver);
  t.same((await answers(clientFor(server, 'othello@example.com'))).unread, []);
  t.same((await answers(clientFor(server, 'cordelia@example.com'))).unread, [...expected.users.cordelia!.unread, fresh]);
});
