/**
 * What the store says when it cannot write: the API error every refused write gets while the
 * store is being recovered, a short reason read from LevelDB's or the file system's error, and
 * the free space of the volume holding a directory (start-up and recovery both check it).
 */
import { statfs } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { ApiError } from '../domain/errors.js';

/** Why the store cannot write, since when, and how it is being recovered. */
export interface StoreFailure {
  /** What clients are told, without paths: "its disk is full". */
  cause: string;
  /** A sentence for operators (/health, logs): what failed and what recovery waits for. */
  reason: string;
  /** Unix ms of the first failed write of this outage. */
  since: number;
  /** Reopen attempts made so far in this outage. */
  attempts: number;
}

/** A short reason from a LevelDB or file-system error (ENOSPC and EDQUOT are named as a full disk). */
export function describeStoreError(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | undefined)?.code;
  const cause = (error as { cause?: { message?: string } } | undefined)?.cause?.message;
  const detail = cause && !text.includes(cause) ? `${text} (${cause})` : text;
  if (code === 'ENOSPC' || /no space left|ENOSPC/i.test(detail)) return `the disk is full: ${detail}`;
  if (code === 'EDQUOT' || /quota exceeded|EDQUOT/i.test(detail)) return `the disk quota is exceeded: ${detail}`;
  return `a write to the store failed: ${detail}`;
}

/** The short cause clients are told (no paths, no LevelDB details). */
export function storeErrorCause(error: unknown): string {
  const reason = describeStoreError(error);
  if (reason.startsWith('the disk is full')) return 'its disk is full';
  if (reason.startsWith('the disk quota')) return 'its disk quota is exceeded';
  return 'its store failed a write';
}

/**
 * The answer to every write refused while the store is unavailable: 503 with Zulip's error
 * envelope. Zulip names a server that cannot serve the request yet `SERVER_NOT_READY`.
 */
export function storeUnavailable(failure: StoreFailure): ApiError {
  return new ApiError('SERVER_NOT_READY', `The server cannot save changes right now: ${failure.cause}. Nothing was changed; try again later.`, 503, {}, { 'Retry-After': '5' });
}

/**
 * A file write (uploaded bytes) that failed for want of room is answered as the store's are
 * (503, nothing changed); any other error is returned as it is.
 */
export function fileWriteRefusal(error: unknown): unknown {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (code !== 'ENOSPC' && code !== 'EDQUOT') return error;
  return storeUnavailable({ cause: storeErrorCause(error), reason: describeStoreError(error), since: Date.now(), attempts: 0 });
}

/** Bytes an unprivileged process may still write on the volume holding `dir` (its nearest existing ancestor). */
export async function freeBytes(dir: string): Promise<number> {
  let path = resolve(dir);
  for (;;) {
    try {
      const stats = await statfs(path);
      return stats.bavail * stats.bsize;
    } catch (error) {
      const parent = dirname(path);
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || parent === path) throw error;
      path = parent;
    }
  }
}

/** A start-up the environment does not allow (no room, a directory in use): a sentence, and exit code 2. */
export class StartupRefused extends Error {
  readonly exitCode = 2;
}

/** Refuses to start when the data directory's volume has less than `minFreeBytes` free, saying how much is missing. */
export async function checkStartupSpace(dataDir: string, minFreeBytes: number): Promise<void> {
  const free = await freeBytes(dataDir);
  if (free >= minFreeBytes) return;
  throw new StartupRefused(
    `not enough free space for the data directory ${resolve(dataDir)}: ${mebibytes(free)} free on its volume, ` +
      `${mebibytes(minFreeBytes)} needed; free at least ${mebibytes(minFreeBytes - free)} more (or lower PARLEY_MIN_FREE_MB)`,
  );
}

export const mebibytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
