/**
 * The writes of one request, applied as one atomic batch, and the events they produce. The
 * function that changes state also names its events and their users here, so that events
 * reach the log in the same batch as the change (see events/).
 */
import type { BatchOp } from './database.js';

/** An event on its way to the queues of `userIds`. */
export interface PendingEvent {
  /** The event, or a function building it: called only if someone is listening. */
  event: Record<string, unknown> | (() => Record<string, unknown>);
  userIds: readonly number[];
  /** Per-user message flags (a bitfield), sent to each user as the event's `flags` list. */
  flags?: ReadonlyMap<number, number>;
  /** Fields that only the named queue receives (`local_id` echo). */
  forQueue?: { queueId: string; fields: Record<string, unknown> };
}

export class Transaction {
  readonly ops: BatchOp[] = [];
  readonly events: PendingEvent[] = [];
  /** Runs after the batch is durable (cache updates that must not run for a failed write). */
  readonly afterCommit: (() => void)[] = [];
  /** Values read only when the batch is sealed (counters: the newest value wins, whatever the commit order). */
  private readonly lateValues = new Map<string, () => unknown>();

  put(key: string, value: unknown): void {
    this.ops.push({ type: 'put', key, value });
  }

  del(key: string): void {
    this.ops.push({ type: 'del', key });
  }

  emit(event: PendingEvent['event'], userIds: readonly number[], extra: Omit<PendingEvent, 'event' | 'userIds'> = {}): void {
    if (userIds.length === 0) return;
    this.events.push({ event, userIds, ...extra });
  }

  /** Writes `key` with whatever `read()` returns when the batch is sealed. */
  putLate(key: string, read: () => unknown): void {
    this.lateValues.set(key, read);
  }

  /** The batch to write: the ops in order, then the late values. */
  seal(): BatchOp[] {
    for (const [key, read] of this.lateValues) this.ops.push({ type: 'put', key, value: read() });
    this.lateValues.clear();
    return this.ops;
  }

  get isEmpty(): boolean {
    return this.ops.length === 0 && this.events.length === 0;
  }
}
