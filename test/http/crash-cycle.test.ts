/**
 * A short crash-cycle run (`npm run crash-test` runs the long one): kill -9 under load,
 * recovery included, and every acknowledged write and event is there exactly once.
 */
import { test } from 'tap';
import { runCrashCycles, spread } from '../helpers/crash-cycle.js';

const SEED = Number(process.env.PARLEY_CRASH_SEED ?? 20_261_124);

test('kill -9 cycles lose, duplicate and reuse nothing that was acknowledged', async (t) => {
  const report = await runCrashCycles({ cycles: 2, seed: SEED, loadMs: [300, 900], minWritesPerCycle: 30, recoveryKillChance: 0.5, workers: 6 });
  const a = report.acknowledged;
  t.comment(`seed ${SEED}: ${report.kills} kills (${report.recoveryKills} during recovery); ${a.messages} messages, ${a.reactions} reactions, ${a.stars} stars, ${a.reads} reads, ${a.events} events; restart ${spread(report.restartMs).median.toFixed(0)} ms, clean start ${report.cleanStartMs.toFixed(0)} ms`);
  t.equal(report.cycles, 2);
  const writes = a.messages + a.reactions + a.stars + a.reads;
  t.ok(writes >= 60 && a.messages > 0 && a.reactions + a.stars + a.reads > 0, `the load got through between kills (${writes} writes)`);
  t.same(report.problems, [], `every acknowledged write and event exactly once (seed ${SEED}, PARLEY_CRASH_SEED to replay)`);
});
