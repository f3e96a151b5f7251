/**
 * The one LevelDB database: reads (with a read-your-writes overlay for batches not yet on
 * disk), range scans, and group commit — every batch handed in during one event-loop turn is
 * written by a single (synced) LevelDB write.
 */
import { resolve } from 'node:path';
import { Level } from 'level';
import { DirectoryError, makeDirectory } from './directories.js';
import { decode, encode } from './codec.js';
import type { Range } from './keys.js';

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
type Waiter = { resolve: () => void; reject: (error: unknown) => void; rollback: (() => void) | undefined };
const DELETED = Symbol('deleted');
/** The source of a rider op: never in the overlay, so the overlay is left alone after the write. */
const RIDER = Symbol('rider');

/** Why LevelDB did not open: locked by another process, or its own cause. */
function openFailure(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code === 'LEVEL_LOCKED') return 'the database is locked by another process (is a Parley server running on it?)';
  return cause?.message ?? (error as Error).message;
}

export class Database {
  readonly reads: ReadCounters = { gets: 0, scanned: 0 };
  /** Values written but not yet on disk, newest last; read before the database. */
  private readonly overlay = new Map<string, unknown>();
  private queued: QueuedOp[] = [];
  private waiters: Waiter[] = [];
  private flushing = false;
  private scheduled = false;
  private closed = false;
  /** Number of LevelDB writes issued, so tests and benches can see group commit at work. */
  writes = 0;
  /** Called after each LevelDB write with its op count and duration (metrics). */
  onFlush: ((ops: number, seconds: number) => void) | undefined;
  /**
   * Ops that ride along with each LevelDB write, after its batches, without causing one
   * (bookkeeping that may lag: event queue acknowledgements, pruned log entries). They are
   * written straight to disk, never through the overlay.
   */
  riders: (() => readonly BatchOp[]) | undefined;

  private readonly native: { _batch(ops: readonly QueuedOp[], options: { sync: boolean }): Promise<void> };

  private constructor(
    private readonly db: Level<string, Uint8Array>,
    private readonly sync: boolean,
  ) {
    this.native = db as unknown as typeof this.native;
  }

  static async open(path: string, options: { sync: boolean }): Promise<Database> {
    const db = new Level<string, Uint8Array>(makeDirectory(path), { keyEncoding: 'utf8', valueEncoding: 'view' });
    try {
      await db.open();
    } catch (error) {
      // LevelDB's own message is "Database failed to open": the path and the cause are what helps.
      throw new DirectoryError(resolve(path), openFailure(error));
    }
    return new Database(db, options.sync);
  }

  /** Reads one value synchronously: pending writes first, then LevelDB's cache or disk. */
  get<T>(key: string): T | undefined {
    this.reads.gets++;
    if (this.overlay.has(key)) {
      const value = this.overlay.get(key);
      return value === DELETED ? undefined : (value as T);
    }
    const bytes = this.db.getSync(key);
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
        const page = await iterator.nextv(256);
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
        const page = await iterator.nextv(size);
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
   * The caller must close it.
   */
  snapshot(): SnapshotReader {
    const iterator = this.db.iterator<Buffer, Buffer>({ keyEncoding: 'buffer', valueEncoding: 'buffer' });
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
      this.waiters.push({ resolve, reject, rollback });
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
      for (const op of this.riders?.() ?? []) {
        ops.push(op.type === 'put' ? { type: 'put', key: op.key, value: encode(op.value), source: RIDER } : { type: 'del', key: op.key, source: RIDER });
      }
      this.writes++;
      const started = process.hrtime.bigint();
      // The queued ops are already encoded, so they go straight to classic-level's native
      // batch (abstract-level's `_batch` hook for implementations): the public `batch()`
      // clones, validates and re-encodes every op, which profiling showed to be ~40% of the
      // CPU of a busy send. There are no hooks or listeners here to bypass.
      await this.native._batch(ops, { sync: this.sync });
      this.onFlush?.(ops.length, Number(process.hrtime.bigint() - started) / 1e9);
      // Only forget overlay entries that no later op has replaced since.
      for (const op of ops) if (this.overlay.get(op.key) === op.source) this.overlay.delete(op.key);
      for (const waiter of waiters) waiter.resolve();
    } catch (error) {
      const failed = [...waiters, ...this.waiters];
      this.waiters = [];
      this.queued = [];
      // Nothing that was not written is readable any more: the overlay holds only unwritten ops.
      this.overlay.clear();
      for (let i = failed.length - 1; i >= 0; i--) failed[i]!.rollback?.();
      for (const waiter of failed) waiter.reject(error);
    } finally {
      this.flushing = false;
      // Waiters of empty batches queued during the write are owed a turn too, or they wait forever.
      if (this.queued.length > 0 || this.waiters.length > 0) this.schedule();
    }
  }

  /**
   * Deletes a key range on disk (LevelDB walks it natively, without decoding or counting reads).
   * Only for ranges nothing writes to concurrently: the overlay is not consulted.
   */
  async clear(range: Range): Promise<void> {
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
    await this.db.close();
  }
}
