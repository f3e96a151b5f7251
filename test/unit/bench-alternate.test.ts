/** The bench's alternated sides (bench/lib/alternate.ts): each side's figure, the first as the others' baseline, paired-round ratios; and how RESULTS.md names such a baseline. */
import { test } from 'tap';
import { alternatedFigures, type SideRuns } from '../../bench/lib/alternate.js';
import type { LoadResult } from '../../bench/lib/load.js';
import { cell } from '../../bench/lib/summary.js';

function sideRuns(name: string, rates: number[], other = 0.05): SideRuns {
  const runs = rates.map((requestsPerSecond) => ({ requestsPerSecond }) as LoadResult);
  return { side: { name, url: '', pids: () => [] }, runs, cpu: rates.map(() => ({ server: 0.9, client: 0.1, other })) };
}

const HOW = { generator: 'wrk', pinning: 'test' };

test('the first side is the baseline of the others; ratios pair the rounds', async (t) => {
  const [embedded, owner, forwarder] = alternatedFigures(
    [sideRuns('embedded', [1000, 800, 1200]), sideRuns("owner's server", [500, 480, 300]), sideRuns('forwarder', [250, 200, 300], 0.4)],
    'channel send',
    'msg/s',
    16,
    HOW,
  );
  t.same({ name: embedded!.name, value: embedded!.value, baseline: embedded!.baseline, ratio: embedded!.ratio }, { name: 'channel send: embedded', value: 1000, baseline: undefined, ratio: undefined }, 'the reference: its median, no baseline');
  t.equal(owner!.value, 480, "a cluster side's median");
  t.equal(owner!.baseline, 1000, "the reference's median as its baseline");
  t.equal(owner!.baselineLabel, 'embedded');
  t.same(owner!.measured!.ratios, [0.5, 0.6, 0.25], 'each round over the reference round beside it');
  t.equal(owner!.ratio, 0.5, 'the median of the rounds');
  t.same(owner!.spread, [0.25, 0.6]);
  t.same(owner!.warnings, [], 'a quiet side has no warnings');
  t.match(forwarder!.warnings!.join(';'), /other processes used 40%/, 'a noisy one is flagged');
  t.equal(cell(owner!).baseline, '1000 msg/s (embedded)', 'RESULTS.md names the baseline');
});

test('a round faster than the reference is flagged', async (t) => {
  const [, faster] = alternatedFigures([sideRuns('embedded', [100, 1000]), sideRuns('cluster', [300, 400])], 'dm', 'msg/s', 16, HOW);
  t.match(faster!.warnings!.join(';'), /faster than embedded in a round \(3\)/);
});
