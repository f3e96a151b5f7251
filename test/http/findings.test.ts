/**
 * Findings of issue 8 fixed, each through HTTP against one real server: topics from U+00FF on
 * are listed, found and moved; `local_id` is required with `queue_id`; /register carries the
 * fields of feature level 416 only; acknowledgements reach disk with the writes that follow
 * them, so a restart after crashes reads only the event log entries a queue still needs.
 */
import t0 from 'tap';
import { test } from 'tap';
import type { Api } from '../helpers/client.js';
import { clientFor, startTestServer, type TestServer } from '../helpers/server.js';
import { Transaction } from '../../src/store/transaction.js';
import { prefixRange } from '../../src/store/keys.js';

const VERONA = 2;
// The sweep (which also wrote acknowledgements) never runs here: what reaches disk must get there without it.
let server: TestServer = await startTestServer({ PARLEY_SWEEP_SECONDS: '3600' });
t0.teardown(() => server.destroy());
const iago = (): Api => clientFor(server, 'iago@example.com');

async function send(api: Api, topic: string, content: string): Promise<number> {
  const response = await api.post('/messages', { type: 'stream', to: 'Verona', topic, content });
  if (response.status !== 200) throw new Error(`send failed: ${JSON.stringify(response.body)}`);
  return response.body.id;
}

async function topicNames(api: Api): Promise<string[]> {
  const response = await api.get(`/users/me/${VERONA}/topics`);
  if (response.status !== 200) throw new Error(`topics failed: ${JSON.stringify(response.body)}`);
  return response.body.topics.map((topic: { name: string }) => topic.name);
}

async function inTopic(api: Api, topic: string): Promise<number[]> {
  const narrow = [{ operator: 'channel', operand: 'Verona' }, { operator: 'topic', operand: topic }];
  const response = await api.get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow });
  if (response.status !== 200) throw new Error(`narrow failed: ${JSON.stringify(response.body)}`);
  return response.body.messages.map((message: { id: number }) => message.id);
}

test('topics that sort at or above U+00FF are listed, found by a topic narrow, and survive moves and deletes', async (t) => {
  const api = iago();
  const chinese = await send(api, '中文', 'in Chinese');
  const emoji = await send(api, '\u{1F600} grin', 'with an emoji');
  const yDiaeresis = await send(api, '\u00ffes', 'starting with ÿ');
  const plain = await send(api, 'plain ascii', 'for comparison');
  const second = await send(api, '中文', 'in Chinese again');
  const names = await topicNames(api);
  for (const name of ['中文', '\u{1F600} grin', '\u00ffes', 'plain ascii']) t.ok(names.includes(name), `'${name}' is listed`);
  t.same(await inTopic(api, '中文'), [chinese, second]);
  t.same(await inTopic(api, '\u{1F600} grin'), [emoji]);
  t.same(await inTopic(api, '\u00ffes'), [yDiaeresis]);
  t.same(await inTopic(api, 'plain ascii'), [plain]);

  // Move the whole Chinese topic to an astral one, then delete the ÿ topic's only message.
  const moved = await api.patch(`/messages/${chinese}`, { topic: '\u{1F680} 火箭', propagate_mode: 'change_all', send_notification_to_old_thread: false, send_notification_to_new_thread: false });
  t.equal(moved.status, 200, JSON.stringify(moved.body));
  t.same(await inTopic(api, '\u{1F680} 火箭'), [chinese, second], 'both messages moved');
  t.same(await inTopic(api, '中文'), []);
  const deleted = await api.delete(`/messages/${yDiaeresis}`);
  t.equal(deleted.status, 200, JSON.stringify(deleted.body));
  const after = await topicNames(api);
  t.ok(after.includes('\u{1F680} 火箭'), 'the new topic is listed');
  t.notOk(after.includes('中文'), 'the emptied topic is gone');
  t.notOk(after.includes('\u00ffes'), 'the topic whose only message was deleted is gone');
  t.ok(after.includes('\u{1F600} grin'));
  const listed = (await api.get(`/users/me/${VERONA}/topics`)).body.topics.find((topic: { name: string }) => topic.name === '\u{1F680} 火箭');
  t.equal(listed?.max_id, second, 'with its newest message');
});

test('POST /messages with a queue_id but no local_id is refused, and sends nothing', async (t) => {
  const api = iago();
  const queue = (await api.post('/register', { event_types: ['message'] })).body.queue_id as string;
  const refused = await api.post('/messages', { type: 'stream', to: 'Verona', topic: 'local echo', content: 'no local id', queue_id: queue });
  t.equal(refused.status, 400);
  t.match(refused.body, { result: 'error', code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'local_id' argument", var_name: 'local_id' });
  t.same(await inTopic(api, 'local echo'), [], 'nothing was sent');
  const accepted = await api.post('/messages', { type: 'stream', to: 'Verona', topic: 'local echo', content: 'with one', queue_id: queue, local_id: '1.01' });
  t.equal(accepted.status, 200, JSON.stringify(accepted.body));
  const events = (await api.get('/events', { queue_id: queue, last_event_id: -1, dont_block: true })).body.events;
  t.equal(events.find((event: { type: string }) => event.type === 'message')?.local_message_id, '1.01', 'the queue gets its local id back');
  await api.delete('/events', { queue_id: queue }); // an unpolled queue would hold the event log of the last test
});

test('POST /register sends no field that feature level 416 does not have', async (t) => {
  const api = iago();
  for (const capabilities of [{ user_settings_object: true }, {}]) {
    const response = await api.post('/register', { client_capabilities: capabilities });
    t.equal(response.status, 200);
    const body = response.body;
    t.equal(body.zulip_feature_level, 416);
    t.notOk('realm_web_public_access_enabled' in body, 'a GET /server_settings field, not a /register one');
    t.notOk('dense_mode' in body, 'removed at feature level 364');
    t.notOk('dense_mode' in body.user_settings, 'removed from user_settings at feature level 364');
    t.equal(body.user_settings.web_left_sidebar_unreads_count_summary, true, 'new at feature level 398');
    t.equal(body.user_settings.web_left_sidebar_show_channel_folders, true, 'new at feature level 411');
    await api.delete('/events', { queue_id: body.queue_id });
  }
});

/** Keys of the event log on disk. */
async function logLength(): Promise<number> {
  let n = 0;
  for await (const _ of server.services.db.scanKeys(prefixRange(server.services.org.keys.eventPrefix))) n++;
  return n;
}

test('acknowledgements reach disk with the next write, the log is pruned, and a restart after crashes reads only what a queue needs', async (t) => {
  const ENTRIES = 3000;
  const CRASHES = 3;
  const email = 'hamlet@example.com';
  const queueId = (await clientFor(server, email).post('/register', { event_types: ['custom', 'restart'] })).body.queue_id as string;
  let last = -1;
  /** What a client does: takes what the queue holds, then acknowledges it with its next poll. */
  const catchUp = async () => {
    const api = clientFor(server, email);
    const taken = await api.get('/events', { queue_id: queueId, last_event_id: last, dont_block: true });
    t.equal(taken.status, 200, JSON.stringify(taken.body).slice(0, 200));
    last = taken.body.events.at(-1)?.id ?? last;
    await api.get('/events', { queue_id: queueId, last_event_id: last, dont_block: true });
  };
  /** Logs events for the queue's user through the real commit path. */
  const emit = async (count: number) => {
    const userId = server.services.org.users.byEmail(email)!.id;
    for (let done = 0; done < count; ) {
      const tx = new Transaction();
      for (let i = 0; i < 500 && done < count; i++, done++) tx.emit({ type: 'custom', n: done }, [userId]);
      await server.services.commit(tx);
    }
  };
  // Every queue needs the log from its acknowledgement on; the other tests deleted theirs.
  t.equal(server.services.queues.size, 1, 'this is the only queue');
  const storedAck = () => server.services.db.get<{ ack: number }>(server.services.org.keys.queue(queueId))?.ack;

  await emit(ENTRIES);
  await catchUp();
  t.equal(storedAck(), -1, 'the acknowledgement is in memory only…');
  await emit(1);
  t.equal(storedAck(), last, '…until the next write carries it (no write of its own)');
  await server.services.queues.persist(); // the once-a-second tick
  t.equal(await logLength(), 1, 'the tick deleted every acknowledged entry; the unacknowledged one stays');

  for (let crash = 0; crash < CRASHES; crash++) {
    await emit(ENTRIES);
    await catchUp();
    await emit(1); // the load goes on: one more write, then a kill -9
    // A crash: no shutdown write of acknowledgements (the sweep never ran either).
    server.services.queues.close = async () => {};
    server = await server.restart();
    const scanned = server.services.db.reads.scanned;
    t.ok(scanned < 200, `restart ${crash + 1} read ${scanned} entries in all (the log held ${ENTRIES} acknowledged ones)`);
    t.ok((await logLength()) <= 3, 'only entries after the acknowledgement are left in the log');
    const api = clientFor(server, email);
    const replay = await api.get('/events', { queue_id: queueId, last_event_id: last, dont_block: true });
    t.same(replay.body.events.map((event: { type: string }) => event.type), ['custom', 'restart'], 'the queue replays only what it had not acknowledged');
    last = replay.body.events.at(-1).id;
  }
});
