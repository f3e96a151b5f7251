/**
 * Black-box test of acknowledgements written in bounded parts: more queues than one write carries
 * (256 descriptors) acknowledge at once; the next writes and the housekeeping tick carry the rest,
 * the log is pruned only once all are written, and after a restart every queue goes on from its
 * own acknowledgement.
 */
import { test } from 'tap';
import { clientFor, startTestServer } from '../helpers/server.js';
import { register, take, send, type Queue } from '../helpers/events.js';

const QUEUES = 300;

test('many acknowledgements at once survive a restart', async (t) => {
  let server = await startTestServer();
  t.teardown(() => server.destroy());
  const hamlet = () => clientFor(server, 'hamlet@example.com');
  const othello = clientFor(server, 'othello@example.com');
  const queues: Queue[] = [];
  for (let i = 0; i < QUEUES; i += 50) queues.push(...(await Promise.all(Array.from({ length: Math.min(50, QUEUES - i) }, () => register(othello, { event_types: ['message'] })))));
  const first = await send(hamlet(), 'Denmark', 'one');
  // Each queue takes the event, then acknowledges it: QUEUES acknowledgements wait for a write.
  for (const queue of queues) t.same((await take(queue)).map((e) => e.message.id), [first]);
  for (const queue of queues) t.same(await take(queue), []);
  const second = await send(hamlet(), 'Denmark', 'two');

  server = await server.restart();
  const api = clientFor(server, 'othello@example.com');
  let resumed = 0;
  let pruned = 0;
  for (const queue of queues) {
    const response = await api.get('/events', { queue_id: queue.id, last_event_id: queue.last, dont_block: true });
    if (response.status === 200 && response.body.events.some((e: any) => e.type === 'message' && e.message.id === second) && !response.body.events.some((e: any) => e.type === 'message' && e.message.id === first)) resumed++;
    const before = await api.get('/events', { queue_id: queue.id, last_event_id: -1, dont_block: true });
    if (before.status === 400 && /already been pruned/.test(before.body.msg)) pruned++;
  }
  t.equal(resumed, QUEUES, 'every queue resumes after its own acknowledgement, with what followed it');
  t.equal(pruned, QUEUES, "every queue's acknowledgement was written");
});
