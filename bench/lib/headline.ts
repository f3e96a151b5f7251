/** The headline of RESULTS.md: how many people one process serves well, from the newest `mixed` result. */
import type { MixedOutcome } from './mixed-run.js';
import type { ScenarioResult } from './scenario.js';

const GOAL = 20_000;

/** The largest healthy number of people of a `mixed` result (0: none). */
function largestHealthy(result: ScenarioResult): number {
  const steps = (result.detail as MixedOutcome | undefined)?.steps ?? [];
  return steps.filter((s) => s.healthy).at(-1)?.people ?? 0;
}

const peopleOrNone = (people: number) => (people ? people.toLocaleString('en') : 'none');

/** `recent`: the newest full `mixed` runs, oldest first (the newest is `result`): their headlines side by side, since one run's knee moves. */
export function headlineLines(result: ScenarioResult | undefined, file: string | undefined, recent: readonly { result: ScenarioResult; file: string }[] = []): string[] {
  const outcome = result?.detail as MixedOutcome | undefined;
  if (!result || !outcome?.steps) return [];
  const healthy = outcome.steps.filter((s) => s.healthy);
  const best = healthy[healthy.length - 1];
  const lines = [
    '## Headline: people one process serves',
    '',
    `**${peopleOrNone(best?.people ?? 0)}** simulated people served healthily by one Parley process on one core (goal ${GOAL.toLocaleString('en')}: ${best && best.people >= GOAL ? 'met' : 'not met'}; ${file}).`,
    'Healthy: every action\'s p99 ≤ 100 ms, no error, every message delivered to every parked poll that should get it.',
    ...(recent.length > 1 ? [`The last ${recent.length} full runs: ${recent.map((r) => `${peopleOrNone(largestHealthy(r.result))} (${r.file})`).join(', ')}; the tables below are the newest run's.`] : []),
    ...result.notes.slice(0, 2).map((n) => `${n[0]!.toUpperCase()}${n.slice(1)}.`),
    ...outcome.limits.map((l) => `⚠ ${l}.`),
    '',
    '| people | healthy | actions/s | deliveries received / expected | deliveries/s | server CPU | load generator CPU | others | RSS | register p50 | slowest p99 |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const s of outcome.steps) {
    const slowest = Object.entries(s.actions).sort((a, b) => b[1].p99 - a[1].p99)[0];
    lines.push(`| ${s.people} | ${s.healthy ? 'yes' : `no: ${s.why.join('; ')}`} | ${s.actionsPerSecond} | ${s.deliveriesReceived} / ${s.deliveriesExpected} | ${s.deliveriesPerSecond} | ${s.serverCpu} | ${s.clientCpu} | ${s.otherCpu ?? ''} | ${s.rssMiB} MiB | ${s.registerP50Ms} ms | ${slowest ? `${slowest[0]} ${slowest[1].p99} ms` : ''} |`);
  }
  if (best) {
    lines.push('', `At ${best.people} people, per action (requests started in the measured window):`, '', '| action | requests | p50 | p99 |', '|---|---|---|---|');
    for (const [kind, f] of Object.entries(best.actions)) lines.push(`| ${kind} | ${f.count} | ${f.p50} ms | ${f.p99} ms |`);
  }
  if (outcome.profile) {
    lines.push('', `Where the server's time went (${outcome.profile.file}, ${outcome.profile.windowed ? 'the knee\'s measured window' : 'the whole run'}, ${outcome.profile.samples} samples, self time):`, '');
    for (const f of outcome.profile.top.slice(0, 10)) lines.push(`- ${Math.round(f.share * 1000) / 10}% ${f.name}`);
  }
  lines.push('');
  return lines;
}
