/**
 * The event loop first: every thread of the process but the main one — V8's platform workers
 * (concurrent marking and sweeping, optimising compilation), libuv's pool, LevelDB's compaction
 * thread, the search writer's worker thread — runs at a lower CPU priority (a higher nice value).
 *
 * Why: on a core shared by all of them (one vCPU, or a server pinned to one core), the kernel
 * shares time fairly between runnable threads, so a major GC's concurrent marking or a LevelDB
 * compaction took half of the core for tens of milliseconds while requests waited on the main
 * thread. That work is done in the background precisely because it can wait. In the mixed bench
 * at 2,000 people on one core, alternated: p99 of the slowest action 300–760 ms with every thread
 * equal, 63 ms with the helpers at nice 10 (docs/architecture.md, "The event loop first").
 * Helpers still get every cycle the main thread leaves, and all of a core it does not use.
 *
 * Linux only (elsewhere nothing happens): `setpriority(PRIO_PROCESS, tid)` with a thread id
 * changes that one thread, which is what `os.setPriority` calls. Threads start later too (the
 * pool at its first use, a search writer with a large index), so the list is read again every
 * few seconds; a thread once lowered is not touched again. Raising the nice value needs no
 * privilege.
 */
import { readdirSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

const TASKS = '/proc/self/task';
/** How often threads started since are looked for. */
const RESCAN_MS = 2_000;

export interface HelperThreads {
  /** Lowers the threads started since the last look (also run every few seconds). */
  rescan(): void;
  stop(): void;
}

/**
 * Runs every thread but the main one `levels` nice levels below the main thread (capped at 19,
 * the lowest; 0: leaves them all as they are). Relative, so that a server started under `nice`
 * keeps the same order.
 */
export function lowerHelperThreads(levels: number): HelperThreads {
  const nice = Math.min(19, getPriority(process.pid) + levels);
  const lowered = new Set<number>();
  const rescan = (): void => {
    let tasks: string[];
    try {
      tasks = readdirSync(TASKS);
    } catch {
      return; // not Linux (no /proc): nothing to do
    }
    for (const task of tasks) {
      const tid = Number(task);
      // The main thread's id is the process id.
      if (tid === process.pid || lowered.has(tid)) continue;
      try {
        setPriority(tid, nice);
        lowered.add(tid);
      } catch {
        // The thread ended meanwhile.
      }
    }
  };
  if (levels === 0) return { rescan: () => {}, stop: () => {} };
  rescan();
  const timer = setInterval(rescan, RESCAN_MS);
  timer.unref();
  return { rescan, stop: () => clearInterval(timer) };
}
