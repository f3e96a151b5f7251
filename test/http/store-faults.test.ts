/**
 * A full disk never costs an acknowledged write: with writes failing as LevelDB fails on ENOSPC
 * (test/helpers/store-faults.ts), every write path — message, reaction, flags, upload record,
 * event queue registration and the event log, scheduled delivery, actor snapshot — answers 503
 * `SERVER_NOT_READY` and changes nothing, reads keep working, `/health` says `unavailable`
 * with the reason, and once space returns the store is reopened and writes resume without a
 * restart, with no id handed out twice; a restart then holds exactly what was acknowledged.
 */
import { test, type Test } from 'tap';
import type { ApiResponse } from '../helpers/client.js';
import { clientFor } from '../helpers/server.js';
import { delay, register, take } from '../helpers/events.js';
import { BOT, MESSAGES_CLOCK_START, VERONA, messageWorld, send } from '../helpers/messages.js';
import { world, type World } from '../helpers/world.js';
import { diskFault, health, recovered } from '../helpers/store-faults.js';
import { upload } from '../helpers/uploads.js';
import { retryDelaySeconds } from '../../src/actors/scheduler.js';

/**
 * Fills the disk, checks that `attempt` is refused with Zulip's envelope (twice: the second time
 * LevelDB is not even asked), that /health tells, runs `unchanged` (reads while the disk is
 * full), frees the disk and waits until the store accepts writes again.
 */
async function outage(t: Test, w: World, attempt: () => Promise<ApiResponse>, unchanged: () => Promise<void>): Promise<void> {
  const fault = diskFault(w.server.services.db);
  fault.fill();
  const refused = await attempt();
  t.same([refused.status, refused.body.result, refused.body.code], [503, 'error', 'SERVER_NOT_READY'], 'refused with 503 SERVER_NOT_READY');
  t.equal(refused.body.msg, 'The server cannot save changes right now: its disk is full. Nothing was changed; try again later.', 'the message says why, without paths');
  const failedWrites = fault.failedWrites;
  const again = await attempt();
  t.equal(again.status, 503, 'refused again while the store is not recovered');
  t.equal(fault.failedWrites, failedWrites, 'without asking LevelDB: nothing is written behind a failed write');
  const answer = await health(w.hamlet);
  t.equal(answer.status, 503, '/health answers 503');
  t.match(answer.body, { status: 'unavailable', checks: { store: 'unwritable' }, reason: /disk is full/ });
  await unchanged();
  fault.free();
  await recovered(w.hamlet);
  t.match((await health(w.hamlet)).body, { status: 'ok' }, 'healthy again without a restart');
}

test('a message refused on a full disk is never stored, never delivered, and its id never reused', async (t) => {
  const w = await world(t);
  const before = await send(w.hamlet, 'Verona', 'disk', 'before');
  const queue = await register(w.othello, { event_types: ['message'] });
  await outage(
    t,
    w,
    () => w.hamlet.post('/messages', { type: 'stream', to: 'Verona', topic: 'disk', content: 'refused' }),
    async () => {
      const read = await w.hamlet.get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'channel', operand: VERONA }, { operator: 'topic', operand: 'disk' }] });
      t.equal(read.status, 200, 'reads keep working');
      t.same(read.body.messages.map((m: any) => m.id), [before], 'the refused message is not there');
      t.same(await take(queue), [], 'and no event told anyone of it');
    },
  );
  const after = await send(w.hamlet, 'Verona', 'disk', 'after');
  t.ok(after > before, `a new id after the outage (${before} then ${after})`);
  const events = await take(queue);
  t.same(events.map((e) => e.message.content), ['after'], 'only the acknowledged message reached the queue');
  const restarted = await w.server.restart();
  t.teardown(() => restarted.destroy());
  const again = clientFor(restarted, 'hamlet@example.com');
  const stored = await again.get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'channel', operand: VERONA }, { operator: 'topic', operand: 'disk' }], apply_markdown: false });
  t.same(stored.body.messages.map((m: any) => [m.id, m.content]), [[before, 'before'], [after, 'after']], 'after a restart: exactly what was acknowledged');
  const next = await send(again, 'Verona', 'disk', 'next');
  t.ok(next > after, 'ids go on growing after the restart');
});

test('a reaction and a flag refused on a full disk change nothing', async (t) => {
  const w = await world(t);
  const id = await send(w.hamlet, 'Verona', 'disk', 'react');
  const flags = async () => (await w.hamlet.get(`/messages/${id}`)).body.message.flags as string[];
  const reactions = async () => (await w.hamlet.get(`/messages/${id}`)).body.message.reactions as any[];
  await outage(t, w, () => w.hamlet.post(`/messages/${id}/reactions`, { emoji_name: 'octopus' }), async () => {
    t.same(await reactions(), [], 'no reaction');
  });
  await outage(t, w, () => w.hamlet.post('/messages/flags', { messages: [id], op: 'add', flag: 'starred' }), async () => {
    t.notOk((await flags()).includes('starred'), 'not starred');
  });
  t.equal((await w.hamlet.post(`/messages/${id}/reactions`, { emoji_name: 'octopus' })).status, 200);
  t.equal((await w.hamlet.post('/messages/flags', { messages: [id], op: 'add', flag: 'starred' })).status, 200);
  const restarted = await w.server.restart();
  t.teardown(() => restarted.destroy());
  const message = (await clientFor(restarted, 'hamlet@example.com').get(`/messages/${id}`)).body.message;
  t.same(message.reactions.map((r: any) => r.emoji_name), ['octopus'], 'the acknowledged reaction, once');
  t.ok(message.flags.includes('starred'), 'the acknowledged star');
});

test('an upload refused on a full disk leaves no record', async (t) => {
  const w = await world(t);
  await outage(t, w, () => upload(w.hamlet, { name: 'notes.txt', data: 'hello', type: 'text/plain' }), async () => {
    t.same((await w.hamlet.get('/attachments')).body.attachments, [], 'no attachment record');
  });
  const stored = await upload(w.hamlet, { name: 'notes.txt', data: 'hello', type: 'text/plain' });
  t.equal(stored.status, 200, 'uploads work again');
  t.equal((await w.hamlet.get('/attachments')).body.attachments.length, 1);
});

test('queue registration and the event log: refused on a full disk, nothing delivered of a refused write', async (t) => {
  const w = await world(t);
  const queue = await register(w.othello, {});
  await outage(t, w, () => w.hamlet.post('/register', { event_types: ['message'] }), async () => {
    t.equal(w.server.services.queues.size, 1, 'the refused queue does not exist');
    const refused = await w.hamlet.post('/users/me/status', { status_text: 'refused' });
    t.equal(refused.status, 503, 'a write with events is refused too');
    t.same((await take(queue)).filter((e) => e.type === 'user_status'), [], 'its event reached no queue');
  });
  t.equal((await w.hamlet.post('/register', { event_types: ['message'] })).status, 200, 'queues register again');
  t.equal((await w.hamlet.post('/users/me/status', { status_text: 'stored' })).status, 200);
  t.match((await take(queue)).filter((e) => e.type === 'user_status'), [{ status_text: 'stored' }], 'the acknowledged event, once');
});

test('an actor snapshot (drafts) refused on a full disk is rolled back', async (t) => {
  const w = await world(t);
  const draft = (content: string) => ({ type: 'stream', to: [VERONA], topic: 'plans', content, timestamp: Math.floor(Date.now() / 1000) });
  await outage(t, w, () => w.hamlet.post('/drafts', { drafts: [draft('refused')] }), async () => {
    t.same((await w.hamlet.get('/drafts')).body.drafts, [], 'the actor holds no draft');
  });
  t.equal((await w.hamlet.post('/drafts', { drafts: [draft('kept')] })).status, 200);
  const restarted = await w.server.restart();
  t.teardown(() => restarted.destroy());
  const drafts = (await clientFor(restarted, 'hamlet@example.com').get('/drafts')).body.drafts as any[];
  t.same(drafts.map((d) => d.content), ['kept'], 'after a restart: the acknowledged draft only');
});

test('a scheduled delivery whose write fails is retried while the server runs', async (t) => {
  // On the fake clock, which moves only when the test says: on the real one, a loaded machine could
  // answer the POST after the due time and deliver before the disk was filled.
  const w = await messageWorld(t);
  const due = w.seconds() + 2;
  const created = await w.hamlet.post('/scheduled_messages', { type: 'stream', to: VERONA, topic: 'later', content: 'scheduled', scheduled_delivery_timestamp: due });
  t.equal(created.status, 200, JSON.stringify(created.body));
  const fault = diskFault(w.server.services.db);
  fault.fill();
  w.advance(2);
  // Past its due time, with at least one failed delivery and a retry: still waiting, nothing sent.
  const deadline = Date.now() + 30_000;
  while (w.server.services.scheduler.retrying === 0) {
    if (Date.now() > deadline) throw new Error('the delivery was never tried');
    await delay(50);
  }
  t.ok(fault.failedWrites > 0, 'the delivery was tried');
  const listed = (await w.hamlet.get('/scheduled_messages')).body.scheduled_messages as any[];
  t.match(listed, [{ content: 'scheduled', failed: false }], 'still listed, not failed');
  fault.free();
  w.advance(retryDelaySeconds(1)); // the retry's wake-up, well within the 10-minute limit
  const until = Date.now() + 40_000;
  while ((await w.hamlet.get('/scheduled_messages')).body.scheduled_messages.length > 0) {
    if (Date.now() > until) throw new Error('the retry never delivered');
    await delay(50);
  }
  const sent = await w.hamlet.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'topic', operand: 'later' }], apply_markdown: false });
  t.match(sent.body.messages, [{ content: 'scheduled' }], 'delivered by a retry, without a restart');
  t.equal(w.server.services.scheduler.retrying, 0, 'nothing left to retry');
});

test('a delivery retried past the 10-minute limit is marked failed and its owner told', async (t) => {
  const w = await messageWorld(t);
  const due = w.seconds() + 1;
  t.equal((await w.hamlet.post('/scheduled_messages', { type: 'stream', to: VERONA, topic: 'late', content: 'too late', scheduled_delivery_timestamp: due })).status, 200);
  const fault = diskFault(w.server.services.db);
  fault.fill();
  w.advance(2);
  const deadline = Date.now() + 30_000;
  while (w.server.services.scheduler.retrying === 0) {
    if (Date.now() > deadline) throw new Error('the delivery was never tried');
    await delay(20);
  }
  w.advance(11 * 60);
  fault.free();
  const until = Date.now() + 40_000;
  let listed: any[] = [];
  while (!(listed = (await w.hamlet.get('/scheduled_messages')).body.scheduled_messages)[0]?.failed) {
    if (Date.now() > until) throw new Error('the late delivery was never marked failed');
    await delay(50);
  }
  t.match(listed, [{ content: 'too late', failed: true }], 'marked failed, as Zulip does past 10 minutes');
  const notice = await w.hamlet.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'dm', operand: [BOT] }], apply_markdown: false });
  t.match(notice.body.messages, [{ sender_id: BOT, content: /was not sent/ }], 'the owner is told by the notification bot');
  t.ok(MESSAGES_CLOCK_START > 0);
});
