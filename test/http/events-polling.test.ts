/**
 * Black-box tests of GET and DELETE /events: long-poll, heartbeats, pruning, dead queues and expiry. Every subtest has its own demo organization.
 */
import { test, type Test } from 'tap';
import type { ApiResponse } from '../helpers/client.js';
import { clientFor, startTestServer } from '../helpers/server.js';
import { world, type World } from '../helpers/world.js';
import { IAGO, HAMLET, OTHELLO, CORDELIA, VERONA, DENMARK, SCOTLAND, register, take, longPoll, settledWithin, waitFor, serverQueue, sorted, ofType, badQueue, send, MESSAGE_KEYS } from '../helpers/events.js';

/**
 * How long a poll the server is answering now may take to reach the client on a loaded machine:
 * generous, yet well under the default heartbeat (50 s), so an answer within it was not a heartbeat.
 */
const WAKE_DEADLINE_MS = 30_000;

test('GET and DELETE /events', async (t) => {
  t.test('a parked poll waits, and a message wakes it', async (t) => {
    const { server, hamlet, othello } = await world(t);
    const queue = await register(othello, { event_types: ['message'] });
    const poll = longPoll(queue);
    // Parked first (however slowly the request arrives), then seen to stay parked for a while.
    await waitFor(() => serverQueue(server, queue, OTHELLO)?.state === 'polling', 'the poll to park');
    t.equal(await settledWithin(poll, 1500), 'pending', 'no events: the poll stays parked');
    t.equal(serverQueue(server, queue, OTHELLO)?.state, 'polling');
    const id = await send(hamlet, 'Denmark', 'wake up');
    // The send is answered after its events are delivered: the parked poll is being answered now,
    // not at its heartbeat (50 s away), which the deadline below and the events tell apart.
    const answer = await settledWithin(poll, WAKE_DEADLINE_MS);
    t.not(answer, 'pending', 'answered by the send, long before a heartbeat');
    const response = answer as ApiResponse;
    t.equal(serverQueue(server, queue, OTHELLO)?.state, 'idle', 'the parked poll was answered, not left parked');
    t.equal(response.status, 200);
    t.equal(response.body.queue_id, queue.id, 'a completed long-poll carries queue_id');
    t.same(response.body.events.map((e: any) => [e.type, e.message.id]), [['message', id]]);
    t.ok(response.body.events[0].id > queue.last, 'ids grow');
  });

  t.test('dont_block answers at once', async (t) => {
    const { hamlet, othello } = await world(t);
    const queue = await register(othello);
    const empty = await othello.get('/events', { queue_id: queue.id, last_event_id: -1, dont_block: true });
    t.same(empty.body, { result: 'success', msg: '', events: [] }, 'an immediate answer has no queue_id');
    const id = await send(hamlet, 'Denmark', 'waiting');
    const full = await othello.get('/events', { queue_id: queue.id, last_event_id: -1 });
    t.same(full.body.events.map((e: any) => e.message?.id), [id], 'a poll with events waiting answers at once');
    t.notOk('queue_id' in full.body);
    const missing = await othello.get('/events', { last_event_id: -1 });
    t.same([missing.status, missing.body.msg], [400, "Missing 'queue_id' argument"]);
    const noLast = await othello.get('/events', { queue_id: queue.id });
    t.same([noLast.status, noLast.body.msg], [400, "Missing 'last_event_id' argument"]);
  });

  t.test('acknowledged events are pruned, with Zulip errors for ids before or outside the queue', async (t) => {
    const { iago, hamlet, othello } = await world(t);
    const queue = await register(othello, { event_types: ['message'] });
    const first = await send(hamlet, 'Denmark', 'one');
    const between = await send(iago, 'Verona', 'in between', 'x');
    const second = await send(hamlet, 'Denmark', 'two');
    const events = (await othello.get('/events', { queue_id: queue.id, last_event_id: -1, dont_block: true })).body.events;
    t.same(events.map((e: any) => e.message.id), [first, between, second]);
    const [a, b] = [events[0].id, events.at(-1).id];
    t.ok(b > a, 'ids grow');
    const again = await othello.get('/events', { queue_id: queue.id, last_event_id: -1, dont_block: true });
    t.same(again.body.events.map((e: any) => e.id), events.map((e: any) => e.id), 're-sending the same last_event_id is idempotent');
    const acked = await othello.get('/events', { queue_id: queue.id, last_event_id: b, dont_block: true });
    t.same(acked.body.events, [], 'events up to last_event_id are dropped');
    const pruned = await othello.get('/events', { queue_id: queue.id, last_event_id: a, dont_block: true });
    t.equal(pruned.status, 400);
    t.same(pruned.body, { result: 'error', msg: `An event newer than ${a} has already been pruned!`, code: 'BAD_REQUEST' });
    const never = await othello.get('/events', { queue_id: queue.id, last_event_id: b + 1000, dont_block: true });
    t.equal(never.status, 400);
    t.same(never.body, { result: 'error', msg: `Event ${b + 1000} was not in this queue`, code: 'BAD_REQUEST' });
    const stillFine = await othello.get('/events', { queue_id: queue.id, last_event_id: b, dont_block: true });
    t.equal(stillFine.status, 200, 'the queue survives those errors');
  });

  t.test('BAD_EVENT_QUEUE_ID: unknown, another user’s, deleted', async (t) => {
    const { hamlet, othello } = await world(t);
    const unknown = '00000000-0000-4000-8000-000000000000';
    badQueue(t, await othello.get('/events', { queue_id: unknown, last_event_id: -1 }), unknown, 'unknown queue');
    badQueue(t, await othello.delete('/events', { queue_id: unknown }), unknown, 'DELETE of an unknown queue');
    const hamlets = await register(hamlet);
    badQueue(t, await othello.get('/events', { queue_id: hamlets.id, last_event_id: -1, dont_block: true }), hamlets.id, "another user's queue");
    badQueue(t, await othello.delete('/events', { queue_id: hamlets.id }), hamlets.id, "DELETE of another user's queue");
    t.equal((await hamlet.get('/events', { queue_id: hamlets.id, last_event_id: -1, dont_block: true })).status, 200, 'the owner still has it');
    const deleted = await hamlet.delete('/events', { queue_id: hamlets.id });
    t.same([deleted.status, deleted.body], [200, { result: 'success', msg: '' }]);
    badQueue(t, await hamlet.get('/events', { queue_id: hamlets.id, last_event_id: -1 }), hamlets.id, 'deleted queue');
    badQueue(t, await hamlet.delete('/events', { queue_id: hamlets.id }), hamlets.id, 'deleted twice');
    const noId = await hamlet.delete('/events', {});
    t.same([noId.status, noId.body.msg], [400, "Missing 'queue_id' argument"]);
  });

  t.test('DELETE /events finishes a parked poll, and takes queue_id in the query string (zulip-js)', async (t) => {
    const { server, hamlet } = await world(t);
    const queue = await register(hamlet);
    const poll = longPoll(queue);
    await waitFor(() => serverQueue(server, queue, HAMLET)?.state === 'polling', 'the poll to park');
    const response = await fetch(`${server.url}/api/v1/events?queue_id=${queue.id}`, { method: 'DELETE', headers: { authorization: hamlet.authorization! } });
    t.equal(response.status, 200);
    const finished = await settledWithin(poll, WAKE_DEADLINE_MS);
    t.not(finished, 'pending', 'the parked poll was answered');
    t.same((finished as ApiResponse).body, { result: 'success', msg: '', events: [], queue_id: queue.id });
    badQueue(t, await hamlet.get('/events', { queue_id: queue.id, last_event_id: -1 }), queue.id, 'gone');
  });

  t.test('a second poll finishes the first one with no events', async (t) => {
    const { server, hamlet, othello } = await world(t);
    const queue = await register(othello, { event_types: ['message'] });
    const first = longPoll(queue);
    await waitFor(() => serverQueue(server, queue, OTHELLO)?.state === 'polling', 'the first poll to park');
    const second = longPoll(queue);
    const answer = await settledWithin(first, WAKE_DEADLINE_MS);
    t.not(answer, 'pending', 'the first poll is finished');
    t.same((answer as ApiResponse).body, { result: 'success', msg: '', events: [], queue_id: queue.id });
    t.equal(await settledWithin(second, 300), 'pending', 'the second one takes over the waiting');
    const id = await send(hamlet, 'Denmark', 'for the second poll');
    const response = await second;
    t.same(response.body.events.map((e: any) => e.message.id), [id]);
  });

  t.test('a client that leaves while parked leaks nothing', async (t) => {
    const { server, hamlet, othello } = await world(t);
    const queue = await register(othello, { event_types: ['message'] });
    const controller = new AbortController();
    const aborted = fetch(`${server.url}/api/v1/events?queue_id=${queue.id}&last_event_id=-1`, {
      headers: { authorization: othello.authorization! },
      signal: controller.signal,
    }).catch((error: unknown) => error);
    await waitFor(() => serverQueue(server, queue, OTHELLO)?.state === 'polling', 'the poll to park');
    controller.abort();
    t.type(await aborted, Error, 'the client gave up');
    await waitFor(() => serverQueue(server, queue, OTHELLO)?.state === 'idle', 'the server to notice the disconnect');
    t.equal(serverQueue(server, queue, OTHELLO)?.parked, undefined, 'the parked poll is released');
    const id = await send(hamlet, 'Denmark', 'after the disconnect');
    t.equal(serverQueue(server, queue, OTHELLO)?.pending.length, 1, 'the event waits in the queue');
    const response = await longPoll(queue);
    t.same(response.body.events.map((e: any) => e.message.id), [id], 'the next poll gets it');
  });
});

const SHORT = { PARLEY_HEARTBEAT_SECONDS: '1', PARLEY_QUEUE_IDLE_SECONDS: '2', PARLEY_SWEEP_SECONDS: '1' };

test('heartbeats and expiry (short intervals)', async (t) => {
  t.test('a quiet poll gets a heartbeat, whatever its event_types', async (t) => {
    const { hamlet, othello } = await world(t, { env: SHORT });
    const queue = await register(othello, { event_types: ['message'] });
    const started = Date.now();
    const response = await longPoll(queue);
    const waited = Date.now() - started;
    // Not before the 1-s interval; an answer within the deadline was not the default 50-s heartbeat.
    t.ok(waited >= 800 && waited < WAKE_DEADLINE_MS, `answered after the heartbeat interval (${waited} ms)`);
    t.same(response.body, { result: 'success', msg: '', events: [{ type: 'heartbeat', id: -1 }], queue_id: queue.id }, 'a fresh queue’s heartbeat has its last id');
    const id = await send(hamlet, 'Denmark', 'between heartbeats');
    const events = (await longPoll(queue, -1)).body.events;
    t.same(events.map((e: any) => e.type), ['message']);
    const last = events[0].id;
    const beat = await longPoll(queue, last);
    t.same(beat.body.events, [{ type: 'heartbeat', id: last }], 'a heartbeat carries the newest id the queue was given');
    const next = await othello.get('/events', { queue_id: queue.id, last_event_id: last, dont_block: true });
    t.equal(next.status, 200, 'polling on from the heartbeat id works');
    t.ok(id > 0);
  });

  t.test('a queue nobody polls expires; queue_lifespan_secs extends it', async (t) => {
    const { server, othello } = await world(t, { env: SHORT });
    const short = await register(othello);
    const long = await register(othello, { queue_lifespan_secs: 3600 });
    await waitFor(() => serverQueue(server, short, OTHELLO) === undefined, 'the idle queue to expire');
    badQueue(t, await othello.get('/events', { queue_id: short.id, last_event_id: -1, dont_block: true }), short.id, 'expired queue');
    badQueue(t, await othello.delete('/events', { queue_id: short.id }), short.id, 'DELETE of an expired queue');
    const alive = await othello.get('/events', { queue_id: long.id, last_event_id: -1, dont_block: true });
    t.equal(alive.status, 200, 'the queue with a longer lifespan outlived it');
  });

  t.test('a queue being polled does not expire', async (t) => {
    // On a fake clock that moves only while a poll is parked: however long a loaded machine takes
    // between one poll's answer and the next poll, that time does not count as the queue's idleness.
    const { server, othello, advance } = await world(t, { env: SHORT, clockStart: Date.UTC(2026, 0, 1, 12) });
    const queue = await register(othello, { event_types: ['message'] });
    const unpolled = await register(othello, { event_types: ['message'] });
    const statuses: number[] = [];
    // Three heartbeats: 4.5 s of the clock, more than twice the idle timeout (2 s).
    for (let beat = 0; beat < 3; beat++) {
      const poll = longPoll(queue);
      await waitFor(() => serverQueue(server, queue, OTHELLO)?.state === 'polling', 'the poll to park');
      advance(1.5); // past the heartbeat (1 s), within the idle timeout
      await server.services.queues.sweep(); // while parked
      statuses.push((await poll).status);
      await server.services.queues.sweep(); // between polls: idle for 1.5 s of the clock
    }
    t.same(statuses, [200, 200, 200], 'each poll answered by its heartbeat');
    t.ok(serverQueue(server, queue, OTHELLO), 'still there, 4.5 s after it was registered');
    t.equal(serverQueue(server, unpolled, OTHELLO), undefined, 'while the same sweeps expired a queue nobody polled');
  });
});
