/**
 * Every registered event queue: registration, lookup, fan-out of committed events to the
 * queues of the users concerned, heartbeats for quiet long-polls, expiry, keeping the event log
 * no longer than the queues need, and rebuilding the queues after a restart (crash included)
 * from their descriptors, each given what it had not acknowledged at its first poll (backlog.ts).
 */
import { randomBytes } from 'node:crypto';
import { ApiError } from '../domain/errors.js';
import type { Counters } from '../store/counters.js';
import type { BatchOp, Database } from '../store/database.js';
import type { EventLog } from '../store/event-log.js';
import { Transaction } from '../store/transaction.js';
import { Backlog, neededAfter } from './backlog.js';
import { EventQueue, type QueueDescriptor, type QueuedEvent, type QueueOwner } from './event-queue.js';
import { acceptsEvent } from './queue-filter.js';
import { DescriptorCompactor } from './compact-descriptor.js';
import { FlushBatch } from './flush-batch.js';
import { VariantCache, variantKey, type LoggedEvent } from './variants.js';

export interface QueueTimings {
  /** Quiet time before a parked poll gets a heartbeat (randomised ±10 %, as Zulip's 45–55 s). */
  heartbeatMs: number;
  /** Default lifetime of a queue nobody polls. */
  idleMs: number;
  maxLifespanMs: number;
  /**
   * Undelivered events a queue may hold; one more and it is expired early, as a queue nobody
   * polls (its client gets BAD_EVENT_QUEUE_ID and registers again). This bounds both memory and
   * the replay a restart does for the queues' backlog.
   */
  maxEvents: number;
}

export type NewQueue = Omit<QueueDescriptor, 'id' | 'minId' | 'ack' | 'lastPoll'>;

const EMPTY: ReadonlySet<EventQueue> = new Set();
/** Log entries deleted by one write at most; the rest go with the following writes. */
const MAX_PRUNED_PER_WRITE = 10000;
/** Acknowledgements one write carries at most (the next message need not store 10,000 first). */
const MAX_ACKS_PER_WRITE = 256;
/** Bookkeeping writes one housekeeping tick makes at most (the next tick goes on). */
const MAX_TICK_WRITES = 64;

export class EventQueues {
  private readonly queues = new Map<string, EventQueue>();
  private readonly byUser = new Map<number, Set<EventQueue>>();
  /** Queues that see every public-channel message (all_public_streams, or a narrow). */
  private readonly watchers = new Set<EventQueue>();
  /** Queues to answer once the deliveries already under way are all in (one setImmediate for all: events/flush-batch.ts). */
  private readonly toFlush = new FlushBatch();
  /** Queues whose acknowledgement moved since it was last written. */
  private readonly unsaved = new Set<EventQueue>();
  /** Log entries up to this id are deleted (or being deleted by a write in flight). */
  private pruned = 0;
  /** Log entries up to this id are needed by no queue (see `settle`). */
  private settled = 0;
  /** Descriptors of queues expired for holding too many events, to delete with the next write. */
  private readonly overflowed = new Set<string>();
  /** Queues expired early for holding more than `maxEvents` since start (metrics). */
  overflowCount = 0;
  /**
   * Told, once the removal is durable, when a user's last queue was deleted or expired, with the
   * events those queues still held (Zulip's gc hooks: missedmessage_hook notifies then).
   */
  onLastQueueGone: ((userId: number, pending: readonly QueuedEvent[]) => void) | undefined;
  /** What the queues restored at start had not acknowledged, given to each at its first poll. */
  private backlog: Backlog | undefined;

  private readonly db: Database;
  private readonly removeRider: () => void;
  private readonly removeReopenHook: () => void;

  constructor(
    private readonly log: EventLog,
    private readonly counters: Counters,
    private readonly timings: QueueTimings,
    private readonly now: () => number,
  ) {
    // Acknowledgements and log pruning ride along with the writes the server makes anyway:
    // restart then reads only what some queue still needs, at no cost of a write per poll.
    this.db = log.db;
    this.removeRider = this.db.addRider(() => this.bookkeeping());
    // A failed write lost the bookkeeping it carried: every acknowledgement is written again.
    this.removeReopenHook = this.db.onReopen(() => {
      for (const queue of this.queues.values()) this.unsaved.add(queue);
    });
  }

  get size(): number {
    return this.queues.size;
  }

  /** Figures for metrics, counted when asked (a scrape), so the hot paths keep no tallies. */
  stats(): { queues: number; parkedPolls: number; pendingEvents: number; overflowed: number } {
    let parkedPolls = 0;
    let pendingEvents = 0;
    for (const queue of this.queues.values()) {
      if (queue.state === 'polling') parkedPolls++;
      pendingEvents += queue.pending.length;
    }
    return { queues: this.queues.size, parkedPolls, pendingEvents, overflowed: this.overflowCount };
  }

  /** The newest event id handed out so far. */
  get lastEventId(): number {
    return this.counters.currentRealmId(this.log.realmId, 'event');
  }

  nextEventId(tx: Transaction): number {
    return this.counters.nextRealmId(this.log.realmId, 'event', tx);
  }

  hasQueues(userId: number): boolean {
    return (this.byUser.get(userId)?.size ?? 0) > 0;
  }

  /** How many users hold queues. */
  get listenerCount(): number {
    return this.byUser.size;
  }

  /** The users who hold queues. */
  listeners(): IterableIterator<number> {
    return this.byUser.keys();
  }

  get hasWatchers(): boolean {
    return this.watchers.size > 0;
  }

  queuesOf(userId: number): ReadonlySet<EventQueue> {
    return this.byUser.get(userId) ?? EMPTY;
  }

  /** Creates a queue; it receives events committed from now on. Resolves once its descriptor is durable. */
  async register(spec: NewQueue): Promise<EventQueue> {
    const descriptor = this.compactor.compact({
      ...spec,
      // 96 random bits; randomUUID()'s strings keep ~0.5 KB each alive, a quarter of a queue's budget.
      id: randomBytes(12).toString('base64url'),
      minId: this.lastEventId,
      ack: -1,
      lastPoll: this.now(),
    });
    const queue = this.add(descriptor);
    try {
      await this.log.saveDescriptor(descriptor.id, descriptor);
    } catch (error) {
      // Refused (the store cannot write): the queue never existed.
      this.forget(queue, true);
      throw error;
    }
    return queue;
  }

  /** Descriptors with their option values shared between queues. */
  private readonly compactor = new DescriptorCompactor();

  /** What the queues tell their keeper, one object shared by all of them (closures per queue would cost ~100 bytes of each one's budget). */
  private readonly owner: QueueOwner = { acknowledged: (queue) => void this.unsaved.add(queue), flushWanted: (queue) => this.toFlush.add(queue) };

  private add(descriptor: QueueDescriptor): EventQueue {
    const queue = new EventQueue(descriptor, variantKey(descriptor), this.owner);
    this.queues.set(descriptor.id, queue);
    let mine = this.byUser.get(descriptor.userId);
    if (!mine) this.byUser.set(descriptor.userId, (mine = new Set()));
    mine.add(queue);
    if (descriptor.watchesPublicChannels ?? (descriptor.allPublicStreams || descriptor.narrow.length > 0)) this.watchers.add(queue);
    return queue;
  }

  /** The user's queue; an unknown, expired or someone else's queue is Zulip's BAD_EVENT_QUEUE_ID. */
  get(queueId: string, userId: number): EventQueue {
    const queue = this.queues.get(queueId);
    if (!queue || queue.expired || queue.userId !== userId) {
      throw new ApiError('BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${queueId}`, 400, { queue_id: queueId });
    }
    return queue;
  }

  /**
   * Deletes a queue (DELETE /events, or expiry); its descriptor goes in `tx`. `gone` gathers the
   * events of the queues a sweep removes, so that a user whose queues all expire together is
   * told once, with all of them; without it the user is told at once if this was the last queue.
   */
  remove(queue: EventQueue, tx: Transaction, expired = false, gone?: Map<number, QueuedEvent[]>): void {
    // Taken before the queue forgets its events (an expiry empties them).
    const pending = this.onLastQueueGone ? queue.pending.slice() : [];
    this.forget(queue, expired);
    this.log.deleteDescriptor(queue.id, tx);
    if (!this.onLastQueueGone) return;
    if (gone) gone.set(queue.userId, [...(gone.get(queue.userId) ?? []), ...pending]);
    else this.tellIfGone(queue.userId, pending, tx);
  }

  private tellIfGone(userId: number, pending: readonly QueuedEvent[], tx: Transaction): void {
    if (this.hasQueues(userId)) return;
    tx.afterCommit.push(() => this.onLastQueueGone?.(userId, pending));
  }

  /**
   * Expires a queue that holds more undelivered events than allowed. Called while events are
   * delivered (after their write), so its descriptor's deletion rides with the next write.
   */
  private overflow(queue: EventQueue): void {
    this.forget(queue, queue.state !== 'polling');
    this.overflowed.add(queue.id);
    this.overflowCount++;
  }

  /** Takes a queue out of memory (its descriptor is the caller's). */
  private forget(queue: EventQueue, expired: boolean): void {
    // Expiry applies to an idle queue; deletion (which answers a parked poll) to any.
    if (expired) queue.expire();
    if (!queue.expired) queue.delete();
    this.queues.delete(queue.id);
    const mine = this.byUser.get(queue.userId);
    mine?.delete(queue);
    if (mine?.size === 0) this.byUser.delete(queue.userId);
    this.watchers.delete(queue);
    // A descriptor written after this deletion would bring the queue back at the next start.
    this.unsaved.delete(queue);
    this.backlog?.drop(queue);
  }

  /** Hands committed events to every queue that accepts them. */
  deliver(events: readonly LoggedEvent[]): void {
    for (const logged of events) {
      const variants = new VariantCache(logged);
      for (const userId of logged.userIds) {
        const mine = this.byUser.get(userId);
        if (!mine) continue;
        const flags = variants.flagsOf(userId);
        for (const queue of mine) {
          if (!acceptsEvent(queue.descriptor, logged.event, flags)) continue;
          queue.push(variants.withFlags(queue, flags));
          if (queue.pending.length > this.timings.maxEvents) this.overflow(queue);
        }
      }
      if (this.watchers.size > 0 && isPublicChannelMessage(logged)) {
        const recipients = new Set(logged.userIds);
        for (const queue of this.watchers) {
          if (recipients.has(queue.userId)) continue;
          if (!acceptsEvent(queue.descriptor, logged.event, undefined)) continue;
          queue.push(variants.withFlags(queue, undefined));
          if (queue.pending.length > this.timings.maxEvents) this.overflow(queue);
        }
      }
    }
  }

  /** Answers parked polls that have been quiet for their heartbeat interval. */
  heartbeats(): void {
    const now = this.now();
    for (const queue of this.queues.values()) if (queue.heartbeatIsDue(now)) queue.heartbeat();
  }

  heartbeatMs(): number {
    return Math.round(this.timings.heartbeatMs * (0.9 + Math.random() * 0.2));
  }

  lifespanMs(descriptor: QueueDescriptor): number {
    return descriptor.lifespanSeconds > 0 ? Math.min(descriptor.lifespanSeconds * 1000, this.timings.maxLifespanMs) : this.timings.idleMs;
  }

  /**
   * Finds the newest log entry that no queue needs any more (each queue needs what follows its
   * acknowledgement, or its start): the next writes delete the log up to it. O(queues): called
   * on the housekeeping tick, not per write.
   */
  settle(): void {
    let settled = this.lastEventId;
    for (const queue of this.queues.values()) settled = Math.min(settled, neededAfter(queue.descriptor));
    this.settled = Math.max(this.settled, settled);
  }

  /** Acknowledgements or log deletions are waiting for a write to carry them. */
  get bookkeepingDue(): boolean {
    return this.unsaved.size > 0 || this.overflowed.size > 0 || this.pruned < this.settled;
  }

  /**
   * The ops that ride along with a write: the acknowledgements that moved, and the
   * deletion of log entries no queue needs. Both go in the same batch, so a log entry is never
   * gone while an acknowledgement on disk still points before it.
   */
  private bookkeeping(): BatchOp[] {
    const ops: BatchOp[] = [];
    for (const queue of this.unsaved) {
      if (ops.length >= MAX_ACKS_PER_WRITE) break;
      ops.push(this.log.ackWrite(queue.id, queue.descriptor.ack));
      this.unsaved.delete(queue);
    }
    for (const id of this.overflowed) ops.push(...this.log.descriptorDeletions(id));
    this.overflowed.clear();
    // Pruned only by a write that leaves no acknowledgement unwritten (`settled` follows memory).
    if (this.unsaved.size > 0) return ops;
    const upTo = Math.min(this.settled, this.pruned + MAX_PRUNED_PER_WRITE);
    // Event ids are handed out only to logged events, so the ids name the log entries.
    for (let id = this.pruned + 1; id <= upTo; id++) ops.push(this.log.deletion(id));
    this.pruned = Math.max(this.pruned, upTo);
    return ops;
  }

  /** The housekeeping tick: settles the log and, when no write came by to carry the bookkeeping, makes one. */
  async persist(drain = false): Promise<void> {
    this.settle();
    // Waits while the store is recovered (written again after the reopen). More writes only for a
    // backlog beyond one write's share: writing on as acknowledgements come takes real writes' turns.
    if (this.bookkeepingDue && this.db.writable) await this.db.commit([]);
    const more = (writes: number) => (drain ? this.unsaved.size > 0 || this.overflowed.size > 0 : this.unsaved.size >= MAX_ACKS_PER_WRITE && writes < MAX_TICK_WRITES);
    for (let writes = 1; this.db.writable && more(writes); writes++) await this.db.commit([]);
  }

  /** Housekeeping: expires queues nobody polled for their lifetime, then persists the bookkeeping. */
  async sweep(): Promise<void> {
    // Expiry changes memory before its write: while the store cannot write, it waits.
    if (!this.db.writable) return;
    const now = this.now();
    const tx = new Transaction();
    const gone = new Map<number, QueuedEvent[]>();
    for (const queue of [...this.queues.values()]) {
      if (queue.state !== 'polling' && now - queue.descriptor.lastPoll > this.lifespanMs(queue.descriptor)) this.remove(queue, tx, true, gone);
    }
    for (const [userId, pending] of gone) this.tellIfGone(userId, pending, tx);
    if (!tx.isEmpty) {
      await this.db.commit(tx.seal());
      // Committed directly (not through the publisher, which runs these for other writes).
      for (const after of tx.afterCommit) after();
    }
    await this.persist();
  }

  /**
   * Rebuilds the queues persisted before a restart from their descriptors. What they had not
   * acknowledged is not read now: each gets it at its first poll (`fill`), so a restart's time
   * does not grow with the queues' backlog.
   */
  async restore(): Promise<EventQueue[]> {
    const restored: EventQueue[] = [];
    const now = this.now();
    const acks = await this.log.acks();
    for await (const [, descriptor] of this.log.descriptors<QueueDescriptor>()) {
      // Descriptors written before acknowledgements had their own record carry theirs inside.
      const ack = Math.max(descriptor.ack, acks.get(descriptor.id) ?? -1);
      acks.delete(descriptor.id);
      // The server was away: the clients could not poll, so their time starts again.
      restored.push(this.add(this.compactor.compact({ ...descriptor, ack, lastPoll: now })));
    }
    // A descriptor and its acknowledgement are deleted in one batch, so none should be left alone;
    // any that is (a store written by other code) is deleted here.
    if (acks.size > 0) await this.db.commit([...acks.keys()].flatMap((id) => this.log.descriptorDeletions(id)));
    // Only what follows the oldest acknowledgement is needed; what precedes it (entries a crash
    // kept from being deleted) goes now, in one native range deletion, never read.
    let from = this.lastEventId;
    for (const queue of restored) from = Math.min(from, neededAfter(queue.descriptor));
    await this.log.clearThrough(from);
    this.pruned = this.settled = from;
    const backlog = new Backlog(this.log, this.lastEventId);
    for (const queue of restored) backlog.add(queue);
    this.backlog = backlog.size > 0 ? backlog : undefined;
    return restored;
  }

  /** Whether `queue` was restored at start and waits for its backlog (see `fill`). */
  awaitsBacklog(queue: EventQueue): boolean {
    return this.backlog?.has(queue) ?? false;
  }

  /**
   * Gives a restored queue, before its first poll is answered, the events it had not
   * acknowledged before the restart; a queue then over the bound is expired, as in `deliver`.
   */
  async fill(queue: EventQueue): Promise<void> {
    await this.backlog?.fill(queue, this.watchers.has(queue), (filled) => {
      if (filled.pending.length > this.timings.maxEvents) this.overflow(filled);
    });
    if (this.backlog?.size === 0) this.backlog = undefined;
  }

  /** Shutdown: parked polls are answered with what they have; acknowledgements are written. */
  async close(): Promise<void> {
    for (const queue of this.queues.values()) if (queue.state === 'polling') queue.heartbeat();
    await this.persist(true);
    // The database is the server's and outlives this organization's queues.
    this.removeRider();
    this.removeReopenHook();
  }
}

function isPublicChannelMessage(logged: LoggedEvent): boolean {
  return logged.publicChannel === true;
}
