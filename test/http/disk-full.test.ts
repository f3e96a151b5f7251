/**
 * A short full-disk run on a real volume (`npm run disk-test` runs the long one): a tmpfs filled
 * and freed under load, kill -9 and restart; nothing acknowledged is lost, no id is reused,
 * /health tells the truth. Needs root to mount the tmpfs: otherwise it says so and is skipped.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { t as root, test } from 'tap';
import { runDiskCycles } from '../helpers/disk-cycle.js';

const SEED = Number(process.env.PARLEY_DISK_SEED ?? 20_261_127);
// Each cycle starts a server process two or three times: more than the suite's default on a busy machine.
root.setTimeout(10 * 60_000);

test('a full disk, freed under load, then kill -9: nothing acknowledged lost, no id reused', async (t) => {
  const report = await runDiskCycles({ cycles: 2, seed: SEED, sizeMb: 40, workers: 4, killWhileFull: [false, true], mountDir: join(tmpdir(), `parley-disk-${process.pid}`) });
  if (report.skipped) {
    t.comment(`real-disk test skipped: ${report.skipped}`);
    t.plan(0, `real-disk test skipped: ${report.skipped}`);
    return;
  }
  t.comment(`seed ${SEED}: ${report.acknowledged.messages} messages, ${report.acknowledged.reactions} reactions acknowledged; answers ${JSON.stringify(report.statuses)}; recovery ${report.recoveryMs.map((ms) => ms.toFixed(0)).join(', ')} ms`);
  t.equal(report.cycles, 2);
  t.ok((report.statuses[503] ?? 0) > 0, 'writes were refused while the disk was full');
  t.ok(report.acknowledged.messages > 0, 'and acknowledged around it');
  // Both paths every run: cycle 1 frees the disk and writes recover without a restart; cycle 2 is
  // killed while full, and a start on the full volume is refused (exit code 2) before the space returns.
  t.equal(report.recoveryMs.length, 1, 'one recovery without a restart');
  t.equal(report.refusedStarts, 1, 'one start refused on the full volume');
  t.same(report.problems, [], `every acknowledged write kept, no id reused, /health truthful (seed ${SEED}, PARLEY_DISK_SEED to replay)`);
});
