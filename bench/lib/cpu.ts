/**
 * Who used the CPU during a measurement: a process's own time from /proc/<pid>/stat, and how
 * busy each core was from /proc/stat, so a figure can say whether the server, the load
 * generator or somebody else was the limit.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

let ticksPerSecond: number | undefined;

/** Clock ticks per second of /proc's counters (almost always 100). */
export function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** utime + stime of a whole process (all its threads, living and finished) in seconds. */
export function processCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return cpuSecondsFromStat(stat);
}

/**
 * CPU time of a process's living threads in seconds, to the nanosecond: the sum of the first field
 * of each /proc/<pid>/task/<tid>/schedstat (time on a CPU). /proc/<pid>/stat counts in clock ticks
 * (10 ms), too coarse for a figure of 100 ms; a thread that ends between two readings takes its
 * time away with it, so this is for short measurements of a server whose threads live on.
 * Falls back to `processCpuSeconds` where schedstat is missing.
 */
export function processCpuSecondsPrecise(pid: number): number {
  let nanos = 0;
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      try {
        nanos += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // the thread ended meanwhile
      }
    }
  } catch {
    return processCpuSeconds(pid);
  }
  return Number.isFinite(nanos) && nanos > 0 ? nanos / 1e9 : processCpuSeconds(pid);
}

/** utime + stime from the text of a /proc/<pid>/stat file (the command name may hold spaces and parentheses). */
export function cpuSecondsFromStat(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of the file; the slice starts at field 3 (state).
  return (Number(fields[11]) + Number(fields[12])) / clockTicks();
}

/** The runner's own CPU time in seconds (every thread: autocannon and the long-poll clients run here). */
export function selfCpuSeconds(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

/** Busy and total time of each core, in ticks, from /proc/stat. */
export type CoreTimes = Map<number, { busy: number; total: number }>;

export function coreTimes(): CoreTimes {
  const times: CoreTimes = new Map();
  for (const line of readFileSync('/proc/stat', 'utf8').split('\n')) {
    const match = /^cpu(\d+)\s+(.*)$/.exec(line);
    if (!match) continue;
    const values = match[2].trim().split(/\s+/).map(Number);
    // user nice system idle iowait irq softirq steal guest guest_nice; guests are already in user.
    const total = values.slice(0, 8).reduce((sum, v) => sum + v, 0);
    const idle = values[3] + (values[4] ?? 0);
    times.set(Number(match[1]), { busy: total - idle, total });
  }
  return times;
}

/** Seconds each listed core was busy between two readings. */
export function busySeconds(before: CoreTimes, after: CoreTimes, cores: readonly number[]): number {
  let busy = 0;
  for (const core of cores) {
    const a = before.get(core);
    const b = after.get(core);
    if (a && b) busy += b.busy - a.busy;
  }
  return busy / clockTicks();
}
