/**
 * Black-box tests of event queues that survive a restart: what they had not acknowledged, then a `restart` event.
 */
import { test, type Test } from 'tap';
import type { ApiResponse } from '../helpers/client.js';
import { clientFor, startTestServer } from '../helpers/server.js';
import { world, type World } from '../helpers/world.js';
import { IAGO, HAMLET, OTHELLO, CORDELIA, VERONA, DENMARK, SCOTLAND, register, take, longPoll, settledWithin, waitFor, serverQueue, sorted, ofType, badQueue, send, MESSAGE_KEYS } from '../helpers/events.js';

test('queues survive a restart', async (t) => {
  let server = await startTestServer();
  t.teardown(() => server.destroy());
  const hamlet = () => clientFor(server, 'hamlet@example.com');
  const othello = () => clientFor(server, 'othello@example.com');
  const queue = await register(othello(), { event_types: ['message', 'restart'] });
  const everything = await register(othello());
  const before = [await send(hamlet(), 'Denmark', 'one'), await send(hamlet(), 'Denmark', 'two')];
  const seen = await take(queue);
  t.same(seen.map((e) => e.message.id), before);
  const acknowledged = queue.last;
  t.same(await take(queue), [], 'acknowledged');
  const firstId = seen[0].id;
  const after = [await send(hamlet(), 'Denmark', 'three'), await send(hamlet(), 'Denmark', 'four')];
  const quiet = await register(othello(), { event_types: ['typing'] });
  const parked = longPoll(quiet);
  await waitFor(() => serverQueue(server, quiet, OTHELLO)?.state === 'polling', 'the poll to park');
  const generation = server.services.startedAt;

  server = await server.restart();
  const answer = await parked;
  t.same([answer.status, answer.body.events.map((e: any) => e.type)], [200, ['heartbeat']], 'a poll parked at shutdown is answered');
  queue.api = othello();
  everything.api = othello();

  const response = await othello().get('/events', { queue_id: queue.id, last_event_id: acknowledged, dont_block: true });
  t.equal(response.status, 200, 'the queue id still works');
  const events = response.body.events;
  queue.last = events.at(-1).id;
  t.same(events.filter((e: any) => e.type === 'message').map((e: any) => e.message.id), after, 'every event not acknowledged, once');
  const restart = events.at(-1);
  t.same(Object.keys(restart).sort(), ['id', 'server_generation', 'type', 'zulip_feature_level', 'zulip_merge_base', 'zulip_version']);
  t.match(restart, { type: 'restart', zulip_feature_level: 416 });
  t.ok(Number.isInteger(restart.server_generation) && restart.server_generation >= generation);
  t.ok(events.every((e: any, i: number) => i === 0 || e.id > events[i - 1].id), 'ids increase');
  const pruned = await othello().get('/events', { queue_id: queue.id, last_event_id: firstId, dont_block: true });
  t.same([pruned.status, pruned.body.msg], [400, `An event newer than ${firstId} has already been pruned!`], 'the acknowledgement was kept');

  const all = (await othello().get('/events', { queue_id: everything.id, last_event_id: -1, dont_block: true })).body.events;
  t.same(ofType(all, 'message').map((e: any) => e.message.id), [...before, ...after], 'a queue that acknowledged nothing gets everything');
  t.equal(all.at(-1).type, 'restart');
  const fresh = await register(othello());
  t.same(await take(fresh), [], 'queues created after the restart get no restart event');
  const later = await send(hamlet(), 'Denmark', 'after restart');
  t.same((await take(queue)).filter((e) => e.type === 'message').map((e) => e.message.id), [later], 'the restored queue keeps receiving');
});

test('a restart reads no queue backlog: it is read at the first poll, once for every queue', async (t) => {
  let server = await startTestServer();
  t.teardown(() => server.destroy());
  const as = (email: string) => clientFor(server, email);
  const othello = await register(as('othello@example.com'), { event_types: ['message', 'restart'] });
  // Iago is not in Scotland: he gets its messages as a queue watching every public channel.
  const watcher = await register(as('iago@example.com'), { event_types: ['message', 'restart'], all_public_streams: true });
  const hamlet = await register(as('hamlet@example.com'), { event_types: ['message', 'restart'] });
  const gone = await register(as('hamlet@example.com'));
  const denmark: number[] = [];
  const scotland: number[] = [];
  for (let i = 0; i < 10; i++) {
    denmark.push(await send(as('hamlet@example.com'), 'Denmark', `d${i}`));
    scotland.push(await send(as('othello@example.com'), 'Scotland', `s${i}`));
  }
  const both = [...denmark, ...scotland].sort((a, b) => a - b);

  server = await server.restart();
  for (const queue of [othello, watcher, hamlet, gone]) queue.api = as(queue === othello ? 'othello@example.com' : queue === watcher ? 'iago@example.com' : 'hamlet@example.com');
  t.equal((await gone.api.delete('/events', { queue_id: gone.id })).status, 200, 'a restored queue may be deleted before its first poll');
  const scanned = () => server.services.db.reads.scanned;
  const before = scanned();
  const first = await take(othello);
  t.ok(scanned() - before >= both.length, `the first poll read the backlog (${scanned() - before} entries)`);
  t.same(ofType(first, 'message').map((e: any) => e.message.id), both, 'every message not acknowledged, in order');
  t.equal(first.at(-1).type, 'restart', 'then the restart event');
  t.ok(first.every((e: any, i: number) => i === 0 || e.id > first[i - 1].id), 'ids increase');
  const read = scanned();
  const watched = await take(watcher);
  t.same(ofType(watched, 'message').map((e: any) => e.message.id), both, "a watcher gets the public channel's messages too");
  const own = await take(hamlet);
  t.same(ofType(own, 'message').map((e: any) => e.message.id), denmark, 'a queue gets only what it received before');
  t.equal(scanned(), read, 'the backlog was read once for every queue');
  const later = await send(as('hamlet@example.com'), 'Denmark', 'after');
  t.same(ofType(await take(othello), 'message').map((e: any) => e.message.id), [later], 'once given its backlog, a queue receives as before');
});

test("a restored queue's first poll stays parked past the server's idle timeout for connections", async (t) => {
  let server = await startTestServer();
  t.teardown(() => server.destroy());
  const othello = () => clientFor(server, 'othello@example.com');
  const quiet = await register(othello(), { event_types: ['typing'] });
  const refused = await register(othello(), { event_types: ['typing'] });
  // An event after the queues' last acknowledgement, if not one for them: their first poll reads the log.
  await send(clientFor(server, 'hamlet@example.com'), 'Denmark', 'not for the quiet queues');
  server = await server.restart();
  quiet.api = othello();
  const wrong = await othello().get('/events', { queue_id: refused.id, last_event_id: 12345, dont_block: false });
  t.same([wrong.status, wrong.body.msg], [400, 'Event 12345 was not in this queue'], 'a first poll that reads the log is refused as any other');
  // The first poll reads the queue's backlog before it parks. uWS closes a connection that has
  // been idle for 10 s (checked every 4 s) once its reading was paused and resumed: a poll parked
  // that way was cut after 8–12 s, long before its heartbeat (50 s).
  const parked = longPoll(quiet);
  await waitFor(() => serverQueue(server, quiet, OTHELLO)?.state === 'polling', 'the poll to park');
  t.equal(await settledWithin(parked, 13_000), 'pending', 'still parked after 13 s');
  t.equal((await clientFor(server, 'hamlet@example.com').post('/typing', { op: 'start', to: JSON.stringify([OTHELLO]) })).status, 200);
  const answer = await parked;
  t.same([answer.status, answer.body.events.map((e: any) => e.type)], [200, ['typing']], 'and then answered with the event');
});
