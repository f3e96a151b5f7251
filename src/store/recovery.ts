/**
 * Bringing a store that failed a write back, without a restart: wait (with backoff) until the
 * volume has room again, then reopen LevelDB and prove a synced write; until then every write
 * is refused. Why reopen rather than exit: see docs/architecture.md, "When the disk is full".
 */
import { describeStoreError, mebibytes, type StoreFailure } from './store-fault.js';

export interface RecoveryOptions {
  /** Free bytes the volume must have before a reopen is tried (LevelDB writes a table and a new log when it opens). */
  minFreeBytes: number;
  /** First wait after the failure, doubled after each failed attempt up to `maxDelayMs`. */
  firstDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RECOVERY: RecoveryOptions = { minFreeBytes: 16 * 1024 * 1024, firstDelayMs: 100, maxDelayMs: 5000 };

/** What the recovery loop is given by the database it recovers. */
export interface Recoverable {
  path: string;
  failure: StoreFailure;
  /** Free bytes on the store's volume now. */
  freeBytes(): Promise<number>;
  closed(): boolean;
  /** Closes and reopens LevelDB, then proves a synced write; throws if any step fails. */
  reopen(): Promise<void>;
  /** Updates the reason people are shown (what the last attempt found). */
  report(detail: string): void;
}

/** Sleeps `ms`, waking early when the database closes (a stopping server must not wait for the backoff). */
async function pause(ms: number, closed: () => boolean): Promise<void> {
  const until = Date.now() + ms;
  while (!closed() && Date.now() < until) {
    await new Promise<void>((resolve) => setTimeout(resolve, Math.min(100, until - Date.now())).unref());
  }
}

/** Runs until the store accepts writes again or the database is closed. */
export async function recoverStore(target: Recoverable, options: Partial<RecoveryOptions> = {}): Promise<void> {
  const settings = { ...DEFAULT_RECOVERY, ...options };
  const first = target.failure.reason;
  let delay = settings.firstDelayMs;
  for (;;) {
    await pause(delay, target.closed);
    if (target.closed()) return;
    delay = Math.min(delay * 2, settings.maxDelayMs);
    target.failure.attempts++;
    try {
      const free = await target.freeBytes();
      if (free < settings.minFreeBytes) {
        // Reopening now would fail inside LevelDB (and leave reads without a handle): wait for room.
        target.report(`${first}; ${mebibytes(free)} free on the volume of ${target.path}, ${mebibytes(settings.minFreeBytes)} needed before the store is reopened`);
        continue;
      }
      await target.reopen();
      return;
    } catch (error) {
      target.report(`${first}; the last reopen failed: ${describeStoreError(error)}`);
    }
  }
}
