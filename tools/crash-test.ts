/**
 * `npm run crash-test -- --cycles 100 [--seed N]`: kill -9 cycles against the real server under
 * a mixed load (see test/helpers/crash-cycle.ts), then prints what was acknowledged, what was
 * lost, duplicated or reused (nothing, when all is well) and restart times against a clean start.
 */
import { parseArgs } from 'node:util';
import { runCrashCycles, spread } from '../test/helpers/crash-cycle.js';

const { values } = parseArgs({
  options: {
    cycles: { type: 'string', default: '100' },
    seed: { type: 'string' },
    workers: { type: 'string', default: '8' },
  },
});
const seed = values.seed !== undefined ? Number(values.seed) : Math.floor(Math.random() * 2 ** 31);
const cycles = Number(values.cycles);
console.log(`crash test: ${cycles} cycles, seed ${seed}`);
const started = Date.now();
const report = await runCrashCycles({
  cycles,
  seed,
  loadMs: [200, 2500],
  recoveryKillChance: 0.3,
  workers: Number(values.workers),
  log: (line) => console.log('  ' + line),
});
const restart = spread(report.restartMs);
const a = report.acknowledged;
console.log(`\n${report.cycles} cycles, ${report.kills} kills (${report.recoveryKills} during recovery) in ${((Date.now() - started) / 1000).toFixed(0)} s`);
console.log(`acknowledged: ${a.messages} messages, ${a.reactions} reactions, ${a.stars} stars, ${a.reads} read flags; ${a.events} events delivered`);
console.log(`restart after kill -9: median ${restart.median.toFixed(0)} ms, mean ${restart.mean.toFixed(0)} ms, max ${restart.max.toFixed(0)} ms; clean start of the same data: ${report.cleanStartMs.toFixed(0)} ms`);
console.log(`problems (lost, duplicated, reused, undelivered): ${report.problems.length}`);
for (const line of report.problems) console.log('  ' + line);
process.exitCode = report.problems.length > 0 ? 1 : 0;
