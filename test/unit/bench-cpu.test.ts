/** The bench's precise process CPU time (bench/lib/cpu.ts): per-thread schedstat, to the nanosecond. */
import { test } from 'tap';
import { processCpuSeconds, processCpuSecondsPrecise } from '../../bench/lib/cpu.js';

/** Keeps this thread on the CPU for about `ms` of CPU time (not wall time: a loaded machine only stretches it). */
function spin(ms: number): void {
  const start = process.cpuUsage();
  let x = 0;
  while (true) {
    for (let i = 0; i < 10_000; i++) x += i;
    const used = process.cpuUsage(start);
    if ((used.user + used.system) / 1000 >= ms) break;
  }
  if (x < 0) throw new Error('unreachable');
}

test('counts the CPU time of the process as getrusage does, finer than /proc/<pid>/stat', async (t) => {
  const pid = process.pid;
  const coarse = processCpuSeconds(pid);
  const before = processCpuSecondsPrecise(pid);
  const usageBefore = process.cpuUsage();
  spin(30);
  const after = processCpuSecondsPrecise(pid);
  const usage = process.cpuUsage(usageBefore);
  const preciseMs = (after - before) * 1000;
  const usageMs = (usage.user + usage.system) / 1000;
  t.ok(after > 0 && Math.abs(after - coarse) < 1, `the same order as /proc/<pid>/stat (${after} s against ${coarse} s)`);
  t.ok(preciseMs >= 30 * 0.8, `at least the work done (${preciseMs.toFixed(2)} ms for 30 ms of work)`);
  t.ok(Math.abs(preciseMs - usageMs) <= 5 + usageMs * 0.2, `agrees with getrusage (${preciseMs.toFixed(2)} ms against ${usageMs.toFixed(2)} ms)`);
  // 3 ms of work: /proc/<pid>/stat would say 0 or 10 ms.
  const small = processCpuSecondsPrecise(pid);
  spin(3);
  const smallMs = (processCpuSecondsPrecise(pid) - small) * 1000;
  t.ok(smallMs >= 2.4 && smallMs < 9, `finer than a 10 ms clock tick (${smallMs.toFixed(3)} ms for 3 ms of work)`);
});
