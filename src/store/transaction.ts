/**
 * The writes of one request, applied as one atomic batch, and the events they produce. The
 * function that changes state also names its events and their users here, so that events
 * reach the log in the same batch as the change (see events/).
 *
 * In-memory state (directories, actors, indexes, caches) changes while the transaction is
 * built, so every such change registers its undo here: if the request is refused before it
 * commits, or its batch is refused or fails, `rollback()` restores memory to what the store
 * holds. Counters are the exception: an id handed out stays handed out (ids may skip, never repeat).
 */
import type { BatchOp } from './database.js';

/**
 * Who an event is for: a list, or a set too large to copy (a channel's subscribers) with a
 * test each member must pass. The publisher meets the set with the users who hold queues,
 * walking the smaller of the two, so a big audience costs nothing when few listen.
 */
export type Audience = readonly number[] | { readonly members: ReadonlySet<number>; accepts(userId: number): boolean };

/** An event on its way to the queues of its audience. */
export interface PendingEvent {
  /** The event, or a function building it: called only if someone is listening. */
  event: Record<string, unknown> | (() => Record<string, unknown>);
  userIds: Audience;
  /** Per-user message flags (a bitfield), sent to each user as the event's `flags` list. */
  flags?: ReadonlyMap<number, number> | ((userId: number) => number);
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
  /** Records written once at sealing with the value last set (undefined: deleted), and read back by later steps of this write. */
  private readonly lastWrites = new Map<string, unknown>();
  /** Undo steps of in-memory changes, oldest first; run newest first on rollback. */
  private readonly undos: (() => void)[] = [];
  private state: 'open' | 'sealed' | 'rolled back' = 'open';

  /** Registers how to undo an in-memory change made for this transaction. */
  onRollback(undo: () => void): void {
    this.assertOpen();
    this.undos.push(undo);
  }

  /** Restores memory to what it was before this transaction (newest change first); idempotent. */
  rollback(): void {
    if (this.state === 'rolled back') return;
    this.state = 'rolled back';
    for (let i = this.undos.length - 1; i >= 0; i--) this.undos[i]!();
    this.undos.length = 0;
  }

  get rolledBack(): boolean {
    return this.state === 'rolled back';
  }

  private assertOpen(): void {
    // A change after sealing would reach memory but not the batch already on its way to disk.
    if (this.state !== 'open') throw new Error(`transaction is ${this.state}`);
  }

  put(key: string, value: unknown): void {
    this.assertOpen();
    this.ops.push({ type: 'put', key, value });
  }

  del(key: string): void {
    this.assertOpen();
    this.ops.push({ type: 'del', key });
  }

  emit(event: PendingEvent['event'], userIds: Audience, extra: Omit<PendingEvent, 'event' | 'userIds'> = {}): void {
    if ('length' in userIds ? userIds.length === 0 : userIds.members.size === 0) return;
    this.events.push({ event, userIds, ...extra });
  }

  /** Writes `key` with whatever `read()` returns when the batch is sealed. */
  putLate(key: string, read: () => unknown): void {
    this.lateValues.set(key, read);
  }

  /**
   * Writes `key` (deletes it when `value` is undefined) at sealing, with the value last set: a
   * write that changes one record many times (a turn of deliveries to one topic) writes and
   * encodes it once, and each of its steps reads the one before through `lastWrite`.
   */
  writeLast(key: string, value: unknown): void {
    this.assertOpen();
    this.lastWrites.set(key, value);
  }

  /** What `writeLast` set for `key` in this write: `{ value }`, or undefined when it set nothing. */
  lastWrite(key: string): { value: unknown } | undefined {
    return this.lastWrites.has(key) ? { value: this.lastWrites.get(key) } : undefined;
  }

  /** The batch to write: the ops in order, then the late values and last writes. */
  seal(): BatchOp[] {
    this.assertOpen();
    this.state = 'sealed';
    for (const [key, read] of this.lateValues) this.ops.push({ type: 'put', key, value: read() });
    this.lateValues.clear();
    for (const [key, value] of this.lastWrites) this.ops.push(value === undefined ? { type: 'del', key } : { type: 'put', key, value });
    this.lastWrites.clear();
    return this.ops;
  }

  get isEmpty(): boolean {
    return this.ops.length === 0 && this.lastWrites.size === 0 && this.events.length === 0;
  }
}
