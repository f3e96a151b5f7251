/**
 * Event queues are bounded: a queue holding more undelivered events than PARLEY_QUEUE_MAX_EVENTS
 * is expired early, as a queue nobody polls (its client gets BAD_EVENT_QUEUE_ID and registers
 * again), its descriptor is deleted, and a restart does not bring its backlog back; a queue over
 * the bound at a restart is expired when its backlog is given to it (its first poll).
 */
import { test } from 'tap';
import { clientFor } from '../helpers/server.js';
import { register, take } from '../helpers/events.js';
import { OTHELLO } from '../helpers/demo-ids.js';
import { sendDm } from '../helpers/messages.js';
import { world } from '../helpers/world.js';

test('a queue over PARLEY_QUEUE_MAX_EVENTS is expired early; a polling one is not', async (t) => {
  const w = await world(t, { env: { PARLEY_QUEUE_MAX_EVENTS: '5' } });
  const idle = await register(w.othello, { event_types: ['message'] });
  const active = await register(w.othello, { event_types: ['message'] });
  for (let i = 0; i < 8; i++) {
    await sendDm(w.hamlet, [OTHELLO], `note ${i}`);
    t.equal((await take(active)).length, 1, `the polling queue gets message ${i}`);
  }
  const polled = await w.othello.get('/events', { queue_id: idle.id, last_event_id: idle.last, dont_block: true });
  t.same([polled.status, polled.body.code, polled.body.queue_id], [400, 'BAD_EVENT_QUEUE_ID', idle.id], 'the idle queue went at its sixth event');
  t.equal(w.server.services.queues.stats().overflowed, 1);
  // Restarted with a large bound: only a deleted descriptor keeps the queue from coming back.
  const restarted = await w.server.restart({ PARLEY_QUEUE_MAX_EVENTS: '1000' });
  t.teardown(() => restarted.destroy());
  const othello = clientFor(restarted, 'othello@example.com');
  const after = await othello.get('/events', { queue_id: idle.id, last_event_id: idle.last, dont_block: true });
  t.equal(after.body.code, 'BAD_EVENT_QUEUE_ID', 'its descriptor was deleted: a restart does not bring it back');
  const kept = await othello.get('/events', { queue_id: active.id, last_event_id: active.last, dont_block: true });
  t.equal(kept.status, 200, 'the polling queue survives the restart');
});

test('a queue over the bound when the server restarts is expired at its first poll', async (t) => {
  const w = await world(t);
  const idle = await register(w.othello, { event_types: ['message'] });
  for (let i = 0; i < 4; i++) await sendDm(w.hamlet, [OTHELLO], `note ${i}`);
  const restarted = await w.server.restart({ PARLEY_QUEUE_MAX_EVENTS: '2' });
  t.teardown(() => restarted.destroy());
  const othello = clientFor(restarted, 'othello@example.com');
  const polled = await othello.get('/events', { queue_id: idle.id, last_event_id: idle.last, dont_block: true });
  t.same([polled.status, polled.body.code], [400, 'BAD_EVENT_QUEUE_ID'], 'four waiting events, two allowed: expired');
  t.equal(restarted.services.queues.size, 0, 'nothing of it is held');
});
