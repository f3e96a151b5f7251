/**
 * The one LevelDB database: reads (with a read-your-writes overlay for batches not yet on
 * disk), range scans, and group commit — every batch handed in during one event-loop turn is
 * written by a single (synced) LevelDB write. After a failed write nothing more is accepted
 * until the store is reopened and a write is seen to reach the disk (store/recovery.ts).
 */
import type { Level } from 'level';
import { decode, encode } from './codec.js';
import { openLevel } from './level-open.js';
import { writeNative, type NativeLevel } from './native-batch.js';
import { realmOfBatch, replicateTurn, settleRefused, type EncodedOp, type Replicator } from './replicated-log.js';
import { serverKeys, type Range } from './keys.js';
import { recoverStore, type RecoveryOptions } from './recovery.js';
import { describeStoreError, freeBytes, storeErrorCause, storeUnavailable, type StoreFailure } from './store-fault.js';

export type BatchOp = { type: 'put'; key: string; value: unknown } | { type: 'del'; key: string };

/** Counts what the store read, so tests can show that a query reads only what it returns. */
export interface ReadCounters {
  gets: number;
  scanned: number;
}

/** An op ready for LevelDB: the key as a string, the value already encoded. */
type QueuedOp = ({ type: 'put'; key: string; value: Buffer } | { type: 'del'; key: string }) & {
  /** What the overlay held for this op (the value, or DELETED), to tell whether a later op replaced it. */
  source: unknown;
};

/** Pages of raw entries from one snapshot; an empty page means the end. */
export interface SnapshotReader {
  next(size: number): Promise<[Buffer, Buffer][]>;
  close(): Promise<void>;
}

/** A committed batch's caller: told when it is durable, or rolled back and told why not. */
type Waiter = { resolve: () => void; reject: (error: unknown) => void; rollback: (() => void) | undefined; realm?: number | undefined };
const DELETED = Symbol('deleted');


export interface DatabaseOptions {
  sync: boolean;
  /** How a failed store is recovered (free space wanted before a reopen, backoff). */
  recovery?: Partial<RecoveryOptions>;
}

/**
 * Fault injection (tests): each hook may throw, as LevelDB does on a full disk, to fail the
 * LevelDB write or reopen it stands before. Production never sets them.
 */
export interface StoreFaults {
  beforeWrite?: (ops: number) => void;
  beforeOpen?: () => void;
  /** The free bytes recovery sees on the volume (a full disk reports 0); unset: the real figure. */
  freeBytes?: () => number;
}

/** The source of a rider op: never in the overlay, so the overlay is left alone after the write. */
const RIDER = Symbol('rider');

export class Database {
  readonly reads: ReadCounters = { gets: 0, scanned: 0 };
  /** Values written but not yet on disk, newest last; read before the database. */
  private readonly overlay = new Map<string, unknown>();
  private queued: QueuedOp[] = [];
  private waiters: Waiter[] = [];
  private flushing = false;
  private scheduled = false;
  private closed = false;
  /** Set from a failed write until the store is reopened and proven writable; writes are refused meanwhile. */
  private failure: StoreFailure | undefined;
  private recovering: Promise<void> | undefined;
  /** Told after a recovery, before writes are accepted again (counters reconcile with the disk). */
  private readonly reopenHooks = new Set<() => void>();
  /** Fault injection for tests (see StoreFaults). */
  readonly faults: StoreFaults = {};
  /** Outages and recoveries since start (metrics and tests). */
  readonly outages = { failures: 0, recoveries: 0 };
  /** Told when the store stops accepting writes and when it accepts them again (logging). */
  onStateChange: ((writable: boolean, detail: string) => void) | undefined;
  /** Number of LevelDB writes issued, so tests and benches can see group commit at work. */
  writes = 0;
  /** Called after each LevelDB write with its op count and duration (metrics). */
  onFlush: ((ops: number, seconds: number) => void) | undefined;
  /**
   * Sources of ops that ride along with each LevelDB write, after its batches, without causing
   * one (bookkeeping that may lag: event queue acknowledgements, pruned log entries), one per
   * organization at work. They are written straight to disk, never through the overlay.
   */
  private readonly riders = new Set<() => readonly BatchOp[]>();

  private native: NativeLevel;
  private readonly sync: boolean;
  /** Cluster mode only (docs/cluster.md): each turn's batches go to their organizations' streams first. */
  private replicator: Replicator | undefined;
  private node = '';

  private constructor(
    private db: Level<string, Uint8Array>,
    readonly path: string,
    private readonly options: DatabaseOptions,
  ) {
    this.native = db as unknown as NativeLevel;
    this.sync = options.sync;
  }

  static async open(path: string, options: DatabaseOptions): Promise<Database> {
    return new Database(await openLevel(path), path, options);
  }

  /** False from a failed write until the store is recovered: every write is refused with a 503 meanwhile. */
  get writable(): boolean {
    return this.failure === undefined && !this.closed;
  }

  /** Why the store cannot write (undefined while it can). */
  get unavailable(): Readonly<StoreFailure> | undefined {
    return this.failure;
  }

  /** Cluster mode: from now on every group commit is appended to the organizations' streams before LevelDB. */
  replicateWith(replicator: Replicator, node: string): void {
    this.replicator = replicator;
    this.node = node;
  }

  /** A follower's write: a stream entry's ops (already encoded) straight to LevelDB, never through the overlay. */
  async applyReplicated(ops: readonly EncodedOp[]): Promise<void> {
    if (this.failure) throw storeUnavailable(this.failure);
    await writeNative(this.native, ops, this.sync);
  }

  /** Adds a source of rider ops (see `riders`); returns its removal. */
  addRider(rider: () => readonly BatchOp[]): () => void {
    this.riders.add(rider);
    return () => this.riders.delete(rider);
  }

  /** Registers a step to run after each recovery, before the first write is accepted; returns its removal (an organization unloaded). */
  onReopen(hook: () => void): () => void {
    this.reopenHooks.add(hook);
    return () => this.reopenHooks.delete(hook);
  }

  /** Reads one value synchronously: pending writes first, then LevelDB's cache or disk. */
  get<T>(key: string): T | undefined {
    this.reads.gets++;
    if (this.overlay.has(key)) {
      const value = this.overlay.get(key);
      return value === DELETED ? undefined : (value as T);
    }
    let bytes: Uint8Array | undefined;
    try {
      bytes = this.db.getSync(key);
    } catch (error) {
      // The handle is being swapped by a recovery (a few milliseconds): say so, not "internal error".
      if (this.failure) throw storeUnavailable(this.failure);
      throw error;
    }
    return bytes === undefined ? undefined : decode<T>(bytes);
  }

  /**
   * Walks a key range in order (or reverse), yielding decoded entries. Pending writes are not
   * merged in: a range scan sees what is on disk, which is everything acknowledged.
   */
  async *scan<T>(range: Range, options: { reverse?: boolean; limit?: number } = {}): AsyncGenerator<[string, T]> {
    const iterator = this.db.iterator({ ...range, reverse: options.reverse ?? false, limit: options.limit ?? -1 });
    try {
      for (;;) {
        const page = await this.page(iterator.nextv(256));
        if (page.length === 0) return;
        for (const [key, bytes] of page) {
          this.reads.scanned++;
          yield [key, decode<T>(bytes)];
        }
      }
    } finally {
      await iterator.close();
    }
  }

  /**
   * Like `scan` but yields keys only (index ranges whose value is not needed). Pages start at
   * `firstPage` keys and grow fourfold, so a walk that needs 50 keys reads about 50.
   */
  async *scanKeys(range: Range, options: { reverse?: boolean; limit?: number; firstPage?: number } = {}): AsyncGenerator<string> {
    const iterator = this.db.keys({ ...range, reverse: options.reverse ?? false, limit: options.limit ?? -1 });
    let size = Math.max(1, options.firstPage ?? 256);
    try {
      for (;;) {
        const page = await this.page(iterator.nextv(size));
        size = Math.min(size * 4, 1024);
        if (page.length === 0) return;
        for (const key of page) {
          this.reads.scanned++;
          yield key;
        }
      }
    } finally {
      await iterator.close();
    }
  }

  /**
   * A reader of every raw entry (key and value bytes, undecoded) in one LevelDB snapshot taken
   * by this call: it holds every batch acknowledged before and nothing written after (backups).
   * The caller must close it. With `range`, only the keys in it (one organization's backup).
   */
  snapshot(range?: { gte: string; lt: string }): SnapshotReader {
    const bounds = range ? { gte: Buffer.from(range.gte), lt: Buffer.from(range.lt) } : {};
    const iterator = this.db.iterator<Buffer, Buffer>({ keyEncoding: 'buffer', valueEncoding: 'buffer', ...bounds });
    return { next: (size) => iterator.nextv(size), close: () => iterator.close() };
  }

  /**
   * Queues a batch; resolves once it is written (and synced when configured). Batches queued
   * in the same turn, or while a write is in flight, go to disk together.
   *
   * `rollback` undoes the in-memory changes made for this batch. If a LevelDB write fails,
   * every batch not yet durable (the failed group and all queued after it, which may have
   * been built on it) is rolled back, newest first, and rejected: memory returns to exactly
   * what is on disk.
   */
  commit(ops: readonly BatchOp[], rollback?: () => void): Promise<void> {
    if (this.closed) {
      rollback?.();
      return Promise.reject(new Error('database is closed'));
    }
    if (this.failure) {
      rollback?.();
      return Promise.reject(storeUnavailable(this.failure));
    }
    let realm: number | undefined;
    if (this.replicator) {
      realm = realmOfBatch(ops);
      const refusal = this.replicator.admit(realm);
      if (refusal) {
        rollback?.();
        return Promise.reject(refusal);
      }
    }
    for (const op of ops) {
      if (op.type === 'put') {
        this.overlay.set(op.key, op.value);
        this.queued.push({ type: 'put', key: op.key, value: encode(op.value), source: op.value });
      } else {
        this.overlay.set(op.key, DELETED);
        this.queued.push({ type: 'del', key: op.key, source: DELETED });
      }
    }
    return new Promise((resolve, reject) => {
      this.waiters.push({ resolve, reject, rollback, realm });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.flushing) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    if (this.queued.length === 0 && this.waiters.length === 0) return;
    this.flushing = true;
    const ops = this.queued;
    const waiters = this.waiters;
    this.queued = [];
    this.waiters = [];
    try {
      for (const op of [...this.riders].flatMap((rider) => rider())) {
        ops.push(op.type === 'put' ? { type: 'put', key: op.key, value: encode(op.value), source: RIDER } : { type: 'del', key: op.key, source: RIDER });
      }
      this.writes++;
      const started = process.hrtime.bigint();
      const refused = this.replicator ? await replicateTurn(this.replicator, this.node, ops, RIDER, (op) => this.forget(op)) : undefined;
      this.faults.beforeWrite?.(ops.length);
      // The queued ops are already encoded, so they go straight to classic-level's native
      // batch (store/native-batch.ts): the public `batch()` clones, validates and re-encodes
      // every op, which profiling showed to be ~40% of the CPU of a busy send. There are no
      // hooks or listeners here to bypass.
      await writeNative(this.native, ops, this.sync);
      this.onFlush?.(ops.length, Number(process.hrtime.bigint() - started) / 1e9);
      // Only forget overlay entries that no later op has replaced since.
      for (const op of ops) if (this.overlay.get(op.key) === op.source) this.overlay.delete(op.key);
      if (refused) settleRefused(waiters, refused);
      else for (const waiter of waiters) waiter.resolve();
    } catch (error) {
      // LevelDB may have appended part of the record before failing and would go on appending
      // behind it, and a reopen drops everything after a torn record: so nothing more is
      // written through this handle. Everything not yet durable is refused, and the store is
      // reopened (a fresh log) before the next write is accepted.
      this.fail(error);
      this.replicator?.writeFailed();
      const failed = [...waiters, ...this.waiters];
      this.waiters = [];
      this.queued = [];
      // Nothing that was not written is readable any more: the overlay holds only unwritten ops.
      this.overlay.clear();
      for (let i = failed.length - 1; i >= 0; i--) failed[i]!.rollback?.();
      const refusal = storeUnavailable(this.failure!);
      refusal.cause = error;
      for (const waiter of failed) waiter.reject(refusal);
    } finally {
      this.flushing = false;
      // Waiters of empty batches queued during the write are owed a turn too, or they wait forever.
      if (this.queued.length > 0 || this.waiters.length > 0) this.schedule();
    }
  }

  /** Drops an op's overlay entry unless a later op replaced it. */
  private forget(op: QueuedOp): void {
    if (this.overlay.get(op.key) === op.source) this.overlay.delete(op.key);
  }

  /** A page of a scan; a scan cut by a recovery's reopen is answered as the store being unavailable. */
  private async page<T>(next: Promise<T>): Promise<T> {
    try {
      return await next;
    } catch (error) {
      if (this.failure) throw storeUnavailable(this.failure);
      throw error;
    }
  }

  /** Marks the store failed (first failure of an outage) and starts recovering it. */
  private fail(error: unknown): void {
    const reason = describeStoreError(error);
    if (this.failure) {
      this.failure.reason = reason;
      return;
    }
    this.outages.failures++;
    this.failure = { cause: storeErrorCause(error), reason, since: Date.now(), attempts: 0 };
    this.onStateChange?.(false, reason);
    this.recovering = recoverStore(
      {
        path: this.path,
        failure: this.failure,
        freeBytes: async () => this.faults.freeBytes?.() ?? (await freeBytes(this.path)),
        closed: () => this.closed,
        reopen: () => this.reopen(),
        report: (detail) => {
          if (this.failure) this.failure.reason = detail;
        },
      },
      this.options.recovery,
    ).finally(() => (this.recovering = undefined));
  }

  /**
   * One recovery attempt: closes the handle (the torn tail of the old log is dropped by the
   * reopen, and it holds nothing acknowledged), opens a new one (a new log file), proves with a
   * synced write that writes reach the disk, lets the counters reconcile, then accepts writes.
   */
  private async reopen(): Promise<void> {
    if (this.db.status === 'open') await this.db.close();
    this.faults.beforeOpen?.();
    this.db = await openLevel(this.path);
    this.native = this.db as unknown as NativeLevel;
    if (this.closed) return;
    this.faults.beforeWrite?.(1);
    await this.db.put(serverKeys.probe, new Uint8Array(encode(Date.now())), { sync: true });
    for (const hook of this.reopenHooks) hook();
    const outage = this.failure;
    this.failure = undefined;
    this.outages.recoveries++;
    if (outage) this.onStateChange?.(true, `after ${((Date.now() - outage.since) / 1000).toFixed(1)} s and ${outage.attempts} attempts`);
  }

  /**
   * Deletes a key range on disk (LevelDB walks it natively, without decoding or counting reads).
   * Only for ranges nothing writes to concurrently: the overlay is not consulted.
   */
  async clear(range: Range): Promise<void> {
    if (this.failure) throw storeUnavailable(this.failure);
    await this.db.clear(range);
  }

  /** Resolves once everything queued so far is on disk. */
  async drain(): Promise<void> {
    while (this.flushing || this.scheduled || this.queued.length > 0) {
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  async close(): Promise<void> {
    await this.drain();
    this.closed = true;
    await this.recovering;
    if (this.db.status === 'open' || this.db.status === 'opening') await this.db.close();
  }
}
