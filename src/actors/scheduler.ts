/**
 * The scheduler actor: one per organization, it holds the ids of the scheduled messages and
 * reminders waiting to be sent, with their due times, in due order, and keeps ONE timer armed
 * to the earliest. When it fires, every item due by then is taken out and handed to `deliver`
 * (actions/scheduled-delivery.ts, wired in server.ts: actors do not import actions).
 *
 * Its state is not persisted as a snapshot: each item carries its absolute due time in the store
 * (store/scheduled-messages.ts), and the queue is rebuilt from those records at start. Writing a
 * snapshot of the whole queue with every change would cost O(queue) per change, and XState's
 * `after` delays are not restored from snapshots anyway; the timer is armed from the context.
 */
import { assign, createActor, setup } from 'xstate';
import { dueOrder } from '../domain/scheduled-messages.js';

export interface DueEntry {
  id: number;
  /** Unix seconds. */
  due: number;
}

export type SchedulerEvent =
  | { type: 'LOAD'; entries: readonly DueEntry[] }
  /** Adds an item, or moves it to its new due time. */
  | { type: 'SCHEDULE'; id: number; due: number }
  | { type: 'CANCEL'; id: number }
  /** Takes the first `count` items out: they are being delivered. */
  | { type: 'TAKE'; count: number };

/** The queue with `entry` in its place (binary search: the queue stays in due order). */
function inserted(queue: readonly DueEntry[], entry: DueEntry): DueEntry[] {
  const next = queue.filter((e) => e.id !== entry.id);
  let low = 0;
  let high = next.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (dueOrder(next[middle]!, entry) < 0) low = middle + 1;
    else high = middle;
  }
  next.splice(low, 0, entry);
  return next;
}

export const schedulerMachine = setup({
  types: {
    context: {} as { queue: DueEntry[] },
    events: {} as SchedulerEvent,
  },
  actions: {
    load: assign({ queue: ({ event }) => (event.type === 'LOAD' ? [...event.entries].sort(dueOrder) : []) }),
    schedule: assign({ queue: ({ context, event }) => (event.type === 'SCHEDULE' ? inserted(context.queue, { id: event.id, due: event.due }) : context.queue) }),
    cancel: assign({ queue: ({ context, event }) => (event.type === 'CANCEL' ? context.queue.filter((e) => e.id !== event.id) : context.queue) }),
    take: assign({ queue: ({ context, event }) => (event.type === 'TAKE' ? context.queue.slice(event.count) : context.queue) }),
  },
}).createMachine({
  id: 'scheduler',
  context: { queue: [] },
  initial: 'waiting',
  states: {
    waiting: {
      on: {
        LOAD: { actions: 'load' },
        SCHEDULE: { actions: 'schedule' },
        CANCEL: { actions: 'cancel' },
        TAKE: { actions: 'take' },
      },
    },
  },
});

/** setTimeout's limit is 2^31-1 ms; waking once an hour also follows a wall clock that jumped. */
const MAX_DELAY_MS = 60 * 60 * 1000;

/**
 * Backoff of a delivery whose write failed: 1, 2, 4 … up to 30 seconds, so that a store back
 * within Zulip's 10-minute lateness limit delivers at most half a minute after it returns.
 */
export function retryDelaySeconds(attempt: number): number {
  return Math.min(30, 2 ** Math.max(0, attempt - 1));
}

/** What delivering returns: the ids whose write failed, to be tried again (nothing: all done). */
export type Deliver = (ids: number[]) => Promise<readonly number[] | void>;

/** Number of entries at the head of `queue` that are due at `nowMs`. */
export function dueCount(queue: readonly DueEntry[], nowMs: number): number {
  let count = 0;
  while (count < queue.length && queue[count]!.due * 1000 <= nowMs) count++;
  return count;
}

export class Scheduler {
  private readonly actor = createActor(schedulerMachine);
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the armed timer fires (unix ms of the due time it was armed for). */
  private armedFor: number | undefined;
  private deliver: Deliver | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  /** Failed attempts so far of the items being retried, by id. */
  private readonly attempts = new Map<number, number>();
  private stopped = false;

  /** `now`: unix milliseconds (the services' clock, so that tests can move it). */
  constructor(private readonly now: () => number) {
    this.actor.subscribe(() => this.arm());
    this.actor.start();
  }

  /** Starts delivering: loads the waiting items and arms the timer (overdue items go at once). */
  run(entries: readonly DueEntry[], deliver: Deliver): void {
    this.deliver = deliver;
    this.actor.send({ type: 'LOAD', entries });
  }

  schedule(id: number, due: number): void {
    // A write committed while the server stops: its item waits in the store for the next start.
    this.attempts.delete(id);
    if (!this.stopped) this.actor.send({ type: 'SCHEDULE', id, due });
  }

  cancel(id: number): void {
    this.attempts.delete(id);
    if (!this.stopped) this.actor.send({ type: 'CANCEL', id });
  }

  /** Items whose delivery failed go back in the queue, each after its backoff. */
  private retry(ids: readonly number[]): void {
    if (this.stopped) return;
    const nowSeconds = this.now() / 1000;
    for (const id of ids) {
      const attempt = (this.attempts.get(id) ?? 0) + 1;
      this.attempts.set(id, attempt);
      // Only the scheduler's wake-up moves: the record keeps its due time, which the 10-minute rule reads.
      this.actor.send({ type: 'SCHEDULE', id, due: nowSeconds + retryDelaySeconds(attempt) });
    }
  }

  /** Items being retried after a failed write (tests, health). */
  get retrying(): number {
    return this.attempts.size;
  }

  /** The waiting items in due order. */
  get queue(): readonly DueEntry[] {
    return this.actor.getSnapshot().context.queue;
  }

  /** Disarms the timer and waits for deliveries under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.deliver = undefined;
    this.disarm();
    await Promise.allSettled([...this.inFlight]);
    this.actor.stop();
  }

  private disarm(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.armedFor = undefined;
  }

  /** Keeps the one timer armed to the earliest due time. */
  private arm(): void {
    if (this.deliver === undefined) return;
    const first = this.queue[0];
    if (first === undefined) return this.disarm();
    const at = first.due * 1000;
    if (this.timer !== undefined && this.armedFor === at) return;
    this.disarm();
    this.armedFor = at;
    this.timer = setTimeout(() => this.fire(), Math.min(Math.max(at - this.now(), 0), MAX_DELAY_MS));
  }

  private fire(): void {
    this.timer = undefined;
    this.armedFor = undefined;
    const deliver = this.deliver;
    if (deliver === undefined) return;
    const count = dueCount(this.queue, this.now());
    if (count > 0) {
      const ids = this.queue.slice(0, count).map((entry) => entry.id);
      this.actor.send({ type: 'TAKE', count });
      // `deliver` logs its own failures and names the items it could not write: they are tried again.
      const delivery: Promise<void> = deliver(ids)
        .then(
          (failed) => {
            const retried = new Set(failed ?? []);
            for (const id of ids) if (!retried.has(id)) this.attempts.delete(id);
            this.retry([...retried]);
          },
          () => this.retry(ids),
        )
        .finally(() => this.inFlight.delete(delivery));
      this.inFlight.add(delivery);
    }
    // Woken early (a clock that moved, or the hourly wake-up): arm again for what is left.
    this.arm();
  }
}
