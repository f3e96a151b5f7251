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
