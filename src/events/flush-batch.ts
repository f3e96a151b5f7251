/**
 * The parked polls to answer once the deliveries under way are all in: one `setImmediate` for
 * all the queues that received events in this turn of the event loop, so that one answer carries
 * every event of it.
 *
 * Not a microtask: the writes whose events these are wait for the same store write, and their own
 * answers go out in the microtasks that follow it. Answered first, a message or a reaction in a
 * channel with hundreds of people listening waited for hundreds of parked polls to be written
 * before its sender heard back (react p50 12 ms at 2,500 people in the mixed bench, a fan-out's
 * worth). The events themselves are in the queues at once (a poll arriving meanwhile gets them);
 * only the parked answers wait, until the check phase of the same turn.
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
    if (this.waiting.length === 1) setImmediate(this.run);
  }

  private readonly run = (): void => {
    const queues = this.waiting;
    // A queue asking during the flush goes in the other list, with a turn of its own.
    this.waiting = this.spare;
    for (const queue of queues) queue.flush();
    queues.length = 0;
    this.spare = queues;
  };
}
