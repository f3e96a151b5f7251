/**
 * The parked polls to answer once the deliveries of a commit are all in: one `setImmediate` for
 * all the queues, so that one answer carries every event of the commit (and of every other
 * commit finished in the same turn of the event loop).
 *
 * Not a microtask: the write's own answer is written in the microtasks that follow its commit,
 * and it goes out first. Answering a big channel's parked polls takes milliseconds (a socket
 * write each); the one who posted or reacted no longer waits for it, as with Zulip, whose
 * events leave through Tornado after the answer. The queues hold the events from the commit on,
 * so a poll arriving in between is answered with them at once (queue-machine.ts).
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
    // A queue asking during the flush goes in the other list, answered in the next turn.
    this.waiting = this.spare;
    for (const queue of queues) queue.flush();
    queues.length = 0;
    this.spare = queues;
  };
}
