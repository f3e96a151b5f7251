/**
 * `npm run disk-test -- --cycles 20 [--seed N] [--size-mb 40] [--server path/to/main.js]`: full-disk
 * cycles against the real server on a small tmpfs (root only; see test/helpers/disk-cycle.ts),
 * then prints what was acknowledged, how writes were answered, recovery and restart times, and
 * every problem (a lost or reused acknowledged write, a /health that lied, a 500).
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { spread } from '../test/helpers/crash-cycle.js';
import { runDiskCycles } from '../test/helpers/disk-cycle.js';

const { values } = parseArgs({
  options: {
    cycles: { type: 'string', default: '20' },
    seed: { type: 'string' },
    workers: { type: 'string', default: '6' },
    'size-mb': { type: 'string', default: '40' },
    server: { type: 'string' },
  },
});
const seed = values.seed !== undefined ? Number(values.seed) : Math.floor(Math.random() * 2 ** 31);
const cycles = Number(values.cycles);
console.log(`disk test: ${cycles} cycles on a ${values['size-mb']} MiB tmpfs, seed ${seed}`);
const started = Date.now();
const report = await runDiskCycles({
  cycles,
  seed,
  sizeMb: Number(values['size-mb']),
  workers: Number(values.workers),
  mountDir: join(tmpdir(), `parley-disk-${process.pid}`),
  serverScript: values.server,
  log: (line) => console.log('  ' + line),
});
if (report.skipped) {
  console.log(`skipped: ${report.skipped}`);
  process.exit(0);
}
const recovery = spread(report.recoveryMs);
const restart = spread(report.restartMs);
console.log(`\n${report.cycles} cycles, ${report.kills} kills, ${report.refusedStarts} starts refused on a full disk (exit 2) in ${((Date.now() - started) / 1000).toFixed(0)} s`);
console.log(`acknowledged: ${report.acknowledged.messages} messages, ${report.acknowledged.reactions} reactions; answers to writes: ${JSON.stringify(report.statuses)}`);
console.log(`freed → healthy without restart: median ${recovery.median.toFixed(0)} ms, max ${recovery.max.toFixed(0)} ms; restart after kill -9: median ${restart.median.toFixed(0)} ms, max ${restart.max.toFixed(0)} ms`);
console.log(`problems (lost, reused, 500s, /health lies): ${report.problems.length}`);
for (const line of report.problems) console.log('  ' + line);
process.exitCode = report.problems.length > 0 ? 1 : 0;
