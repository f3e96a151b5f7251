/**
 * Several servers measured in turn on one request (A B C A B C …), the first being the reference
 * of the others: the cluster scenario's embedded server against its cluster targets. Each side's
 * CPU is the sum of its own processes (a cluster is six of them), so that the others on the
 * measured cores are what is left.
 */
import { processCpuSeconds } from './cpu.js';
import { loadGenerator, runLoad, type CpuShares, type LoadResult, type LoadSpec } from './load.js';
import { pinning } from './pinning.js';
import { median, round, type Figure, type Measured, type Settings, type SideMeasure } from './scenario.js';

/** One server measured: where it answers and the processes whose CPU is its own (the first is the one answering). */
export interface Side {
  name: string;
  url: string;
  pids: () => number[];
}

export interface SideRuns {
  side: Side;
  runs: LoadResult[];
  /** CPU of each run with `server` the sum of the side's processes. */
  cpu: CpuShares[];
}

function cpuOf(pids: number[]): number {
  let seconds = 0;
  for (const pid of pids) {
    try {
      seconds += processCpuSeconds(pid);
    } catch {
      // a process that just ended counts nothing
    }
  }
  return seconds;
}

/** One request of the measured shape, for an error's message: its status and the start of its answer. */
async function probe(side: Side, spec: LoadSpec): Promise<string> {
  const variant = spec.variants?.[0];
  try {
    const response = await fetch(side.url + spec.path, { method: spec.method, headers: { ...spec.headers, ...variant?.headers }, body: variant?.body ?? spec.body });
    return `${response.status} ${(await response.text()).slice(0, 300)}`;
  } catch (error) {
    return String(error);
  }
}

async function measure(side: Side, spec: LoadSpec): Promise<{ run: LoadResult; cpu: CpuShares }> {
  const pids = side.pids();
  const before = cpuOf(pids);
  const started = performance.now();
  const run = await runLoad({ ...spec, url: side.url }, pids[0]!);
  const own = round((cpuOf(pids) - before) / ((performance.now() - started) / 1000), 2);
  if (run.non2xx || run.errors) throw new Error(`${side.name}: ${run.non2xx} non-2xx answers, ${run.errors} errors; one request now: ${await probe(side, spec)}`);
  // runLoad's `server` is the first process alone; what the side's other processes used is not "other".
  return { run, cpu: { server: own, client: run.cpu.client, other: round(Math.max(0, run.cpu.server + run.cpu.other - own), 2) } };
}

/** Each side warmed up (1 s), then `settings.rounds` rounds of every side in turn. */
export async function alternate(sides: Side[], load: Omit<LoadSpec, 'url' | 'durationSeconds'>, settings: Settings, label: string, log: (line: string) => void): Promise<SideRuns[]> {
  const spec: LoadSpec = { ...load, url: '', durationSeconds: settings.durationSeconds };
  for (const side of sides) await measure(side, { ...spec, durationSeconds: 1 });
  const measured: SideRuns[] = sides.map((side) => ({ side, runs: [], cpu: [] }));
  for (let round = 1; round <= settings.rounds; round++) {
    const line: string[] = [];
    for (const entry of measured) {
      const { run, cpu } = await measure(entry.side, spec);
      entry.runs.push(run);
      entry.cpu.push(cpu);
      line.push(`${entry.side.name} ${run.requestsPerSecond}/s (CPU ${cpu.server})`);
    }
    log(`    ${label} round ${round}: ${line.join('; ')}`);
  }
  return measured;
}

function sideMeasure(entry: SideRuns, connections: number): SideMeasure {
  const mean = (pick: (cpu: CpuShares) => number) => round(entry.cpu.reduce((sum, c) => sum + pick(c), 0) / entry.cpu.length, 2);
  return {
    connections,
    perRound: entry.runs.map((r) => r.requestsPerSecond),
    cpu: { server: mean((c) => c.server), client: mean((c) => c.client), other: mean((c) => c.other) },
    clientPeak: Math.max(...entry.cpu.map((c) => c.client)),
  };
}

/**
 * One figure per side: the median of its rounds; each side after the first also carries the
 * first's median as its baseline and the median of the paired rounds' ratios.
 */
export function alternatedFigures(
  measured: SideRuns[],
  label: string,
  unit: string,
  connections: number,
  /** How the load was made and where it ran (the run's own, read when not given). */
  how: { generator: string; pinning: string } = { generator: loadGenerator().description, pinning: pinning().description },
): Figure[] {
  const reference = measured[0]!;
  const referenceMeasure = sideMeasure(reference, connections);
  return measured.map((entry, index) => {
    const parley = sideMeasure(entry, connections);
    const m: Measured = { ...how, parley };
    const figure: Figure = { name: `${label}: ${entry.side.name}`, value: Math.round(median(parley.perRound)), unit, measured: m };
    if (index === 0) return figure;
    const ratios = parley.perRound.map((value, i) => round(value / referenceMeasure.perRound[i]!, 4));
    const warnings: string[] = [];
    const pct = (share: number) => `${Math.round(share * 100)}%`;
    if (parley.clientPeak > 0.9) warnings.push(`the client used ${pct(parley.clientPeak)} of its core`);
    if (ratios.some((ratio) => ratio > 1)) warnings.push(`faster than ${reference.side.name} in a round (${Math.max(...ratios)}): a round of either was slowed by something else`);
    if (parley.cpu.other > 0.15) warnings.push(`other processes used ${pct(parley.cpu.other)} of a core on the measured cores: noisy`);
    return {
      ...figure,
      baseline: Math.round(median(referenceMeasure.perRound)),
      baselineLabel: reference.side.name,
      ratio: round(median(ratios), 3),
      spread: [round(Math.min(...ratios), 3), round(Math.max(...ratios), 3)],
      measured: { ...m, ratios },
      warnings,
    };
  });
}
