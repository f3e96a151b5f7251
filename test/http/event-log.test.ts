/**
 * The event log on disk: acknowledgements reach disk with the writes that follow them, the log is
 * pruned, and a restart after crashes reads only the entries a queue still needs. One real server.
 */
import t0 from 'tap';
import { test } from 'tap';
import { clientFor, startTestServer, type TestServer } from '../helpers/server.js';
import { Transaction } from '../../src/store/transaction.js';
import { prefixRange } from '../../src/store/keys.js';

// The sweep (which also wrote acknowledgements) never runs here: what reaches disk must get there without it.
// Queues may hold every event this test logs (3,000 at a time) without being expired early.
let server: TestServer = await startTestServer({ PARLEY_SWEEP_SECONDS: '3600', PARLEY_QUEUE_MAX_EVENTS: '100000' });
t0.teardown(() => server.destroy());

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
  // Every queue needs the log from its acknowledgement on.
  t.equal(server.services.queues.size, 1, 'this is the only queue');
  const storedAck = () => server.services.db.get<number>(server.services.org.keys.queueAck(queueId));
  const storedDescriptor = () => server.services.db.get<{ ack: number }>(server.services.org.keys.queue(queueId));

  await emit(ENTRIES);
  await catchUp();
  t.equal(storedAck(), undefined, 'the acknowledgement is in memory only…');
  await emit(1);
  t.equal(storedAck(), last, '…until the next write carries it (no write of its own)');
  t.equal(storedDescriptor()?.ack, -1, 'in a record of its own: the descriptor is not written again');
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

test('a descriptor stored with its acknowledgement inside (before they had a record of their own) is restored with it; a deleted queue leaves neither record', async (t) => {
  const email = 'iago@example.com';
  const api = () => clientFor(server, email);
  const queueId = (await api().post('/register', { event_types: ['custom', 'restart'] })).body.queue_id as string;
  const userId = server.services.org.users.byEmail(email)!.id;
  const tx = new Transaction();
  for (let i = 0; i < 5; i++) tx.emit({ type: 'custom', n: i }, [userId]);
  await server.services.commit(tx);
  const taken = await api().get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
  const last = taken.body.events.at(-1).id as number;
  await api().get('/events', { queue_id: queueId, last_event_id: last, dont_block: true });
  await server.services.queues.persist();
  const { db, org } = server.services;
  t.equal(db.get<number>(org.keys.queueAck(queueId)), last, 'the acknowledgement is on disk in its own record');

  // The older layout: the acknowledgement inside the descriptor, no record of its own.
  const descriptor = db.get<{ ack: number }>(org.keys.queue(queueId))!;
  await db.commit([{ type: 'put', key: org.keys.queue(queueId), value: { ...descriptor, ack: last } }, { type: 'del', key: org.keys.queueAck(queueId) }]);
  server.services.queues.close = async () => {};
  server = await server.restart();
  const after = await api().get('/events', { queue_id: queueId, last_event_id: last, dont_block: true });
  t.equal(after.status, 200, JSON.stringify(after.body).slice(0, 200));
  t.same(after.body.events.map((event: { type: string }) => event.type), ['restart'], 'restored from the descriptor\'s own acknowledgement: nothing replayed');
  const stale = await api().get('/events', { queue_id: queueId, last_event_id: last - 1, dont_block: true });
  t.equal(stale.status, 400, 'an id before the restored acknowledgement is refused as pruned');

  t.equal((await api().delete('/events', { queue_id: queueId })).status, 200);
  t.equal(server.services.db.get(server.services.org.keys.queue(queueId)), undefined, 'the descriptor is deleted');
  t.equal(server.services.db.get(server.services.org.keys.queueAck(queueId)), undefined, 'and its acknowledgement with it');
});
