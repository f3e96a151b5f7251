/**
 * The parked polls to answer once the deliveries of a commit are all in: one microtask for all
 * the queues of a commit, so that one answer carries every event of it.
 */
import type { EventQueue } from './event-queue.js';

export class FlushBatch {
  private waiting: EventQueue[] = [];
  /**
   * Two lists used in turn rather than a fresh `[]` per commit: V8 starts an empty literal as a
   * list of small integers, and its change on the first queue threw the optimised delivery code
   * away at every fan-out (a deoptimisation and a recompilation per message to many queues).
   */
  private spare: EventQueue[] = [];

  add(queue: EventQueue): void {
    this.waiting.push(queue);
    if (this.waiting.length === 1) queueMicrotask(this.run);
  }

  private readonly run = (): void => {
    const queues = this.waiting;
    // A queue asking during the flush goes in the other list, with a microtask of its own.
    this.waiting = this.spare;
    for (const queue of queues) queue.flush();
    queues.length = 0;
    this.spare = queues;
  };
}
