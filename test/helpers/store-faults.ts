/**
 * Fault injection in the store of a running test server: while the "disk is full", every
 * LevelDB write fails with the error LevelDB gives on ENOSPC and the volume reports no free
 * space, so recovery waits as it would on a real full disk; freeing it lets recovery reopen.
 */
import type { Database } from '../../src/store/database.js';
import type { Api } from './client.js';

export interface DiskFault {
  /** Every LevelDB write fails from now on (and recovery sees 0 bytes free). */
  fill(): void;
  /** Writes may succeed again; recovery reopens the store at its next attempt. */
  free(): void;
  /** LevelDB writes that failed because of the fault. */
  readonly failedWrites: number;
}

/** The error classic-level reports when its log write hits a full disk. */
export function enospc(path: string): Error {
  return Object.assign(new Error(`IO error: ${path}/000005.log: No space left on device`), { code: 'LEVEL_IO_ERROR' });
}

export function diskFault(db: Database): DiskFault {
  let full = false;
  let failed = 0;
  db.faults.beforeWrite = () => {
    if (!full) return;
    failed++;
    throw enospc(db.path);
  };
  db.faults.freeBytes = () => (full ? 0 : Number.MAX_SAFE_INTEGER);
  return {
    fill: () => (full = true),
    free: () => (full = false),
    get failedWrites() {
      return failed;
    },
  };
}

/** GET /health as a load balancer sees it. */
export async function health(api: Api): Promise<{ status: number; body: any }> {
  const response = await fetch(`${api.baseUrl}/health`);
  return { status: response.status, body: await response.json() };
}

/** Waits (bounded) until the store accepts writes again, as /health says. */
export async function recovered(api: Api, ms = 60_000): Promise<void> {
  const until = Date.now() + ms;
  while ((await health(api)).status !== 200) {
    if (Date.now() > until) throw new Error('the store did not recover');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
