/** Unit tests of events/flush-batch.ts: parked polls are answered after the turn's own answers, all of a turn together. */
import { test } from 'tap';
import type { EventQueue } from '../../src/events/event-queue.js';
import { FlushBatch } from '../../src/events/flush-batch.js';

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

test('queues of one turn are flushed once each, after the microtasks of that turn', async (t) => {
  const order: string[] = [];
  const queue = (name: string) => ({ flush: () => order.push(`flush ${name}`) }) as unknown as EventQueue;
  const batch = new FlushBatch();
  batch.add(queue('a'));
  // What a writer does once its store write is in: its answer, in a microtask of the same turn.
  queueMicrotask(() => order.push('writer answered'));
  batch.add(queue('b'));
  void Promise.resolve().then(() => Promise.resolve()).then(() => order.push('writer answered after two awaits'));
  t.same(order, [], 'nothing flushed while the deliveries are under way');
  await turn();
  t.same(order, ['writer answered', 'writer answered after two awaits', 'flush a', 'flush b']);
});

test('a queue added while the batch is flushed goes in the next turn', async (t) => {
  const order: string[] = [];
  const batch = new FlushBatch();
  const late = { flush: () => order.push('late') } as unknown as EventQueue;
  const first = { flush: () => { order.push('first'); batch.add(late); } } as unknown as EventQueue;
  batch.add(first);
  await turn();
  t.same(order, ['first'], 'the late one waits for its own turn');
  await turn();
  t.same(order, ['first', 'late']);
});
