/**
 * Throughput against the baseline: one bare uWS process for the whole run; for each figure the
 * bare server's connection count is the one where it is fastest on that request, then Parley and
 * the bare server are measured alternately (A B A B …) and the ratio is the median of the rounds'
 * ratios; the baseline figure is the bare server's best round.
 */
import { loadGenerator, runLoad, type CpuShares, type LoadResult, type LoadSpec } from './load.js';
import { pinning } from './pinning.js';
import { startBareUws, type RunningProcess } from './processes.js';
import { median, round, warningsFor, type Measured, type Settings, type SideMeasure, type ThroughputOutcome, type ThroughputSpec } from './scenario.js';

function side(connections: number, runs: LoadResult[], perRound: number[]): SideMeasure {
  const mean = (pick: (cpu: CpuShares) => number) => round(runs.reduce((sum, r) => sum + pick(r.cpu), 0) / runs.length, 2);
  return {
    connections,
    perRound,
    cpu: { server: mean((c) => c.server), client: mean((c) => c.client), other: mean((c) => c.other) },
    clientPeak: Math.max(...runs.map((r) => r.cpu.client)),
  };
}

function check(label: string, result: LoadResult): void {
  if (result.non2xx || result.errors) throw new Error(`${label}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
}

export class Baseline {
  private server: RunningProcess | undefined;
  /** Best connection count per request shape (method and answer size), found once per run. */
  private readonly sweeps = new Map<string, { best: number; tried: Array<[number, number]> }>();

  constructor(
    private readonly settings: Settings,
    private readonly log: (line: string) => void,
  ) {}

  private async bare(): Promise<RunningProcess> {
    this.server ??= await startBareUws();
    return this.server;
  }

  private bareSpec(url: string, load: ThroughputSpec['load'], bytes: number, connections: number, durationSeconds: number): LoadSpec {
    // The same request as Parley's (headers, body, variants), asking for an answer of Parley's size;
    // nothing is read from the answers, so the client does no more work than it must.
    return {
      url,
      method: load.method,
      path: load.path,
      headers: { ...load.headers, 'x-bare-bytes': String(bytes) },
      body: load.body,
      variants: load.variants,
      connections,
      durationSeconds,
    };
  }

  /** The connection count at which the bare server answers this request fastest. */
  private async sweep(load: ThroughputSpec['load'], bytes: number): Promise<{ best: number; tried: Array<[number, number]> }> {
    // A request that makes the bare server fan out (the `send` baseline) is a shape of its own.
    const key = `${load.method ?? 'GET'} ${bytes}${load.headers?.['x-bare-fanout'] ? ' fanout' : ''}`;
    const known = this.sweeps.get(key);
    if (known) return known;
    const bare = await this.bare();
    const tried: Array<[number, number]> = [];
    for (const connections of this.settings.sweepConnections) {
      const result = await runLoad(this.bareSpec(bare.url, load, bytes, connections, this.settings.sweepSeconds), bare.child.pid!);
      check('bare server', result);
      tried.push([connections, result.requestsPerSecond]);
    }
    const best = tried.reduce((a, b) => (b[1] > a[1] ? b : a))[0];
    this.log(`    bare server, ${bytes} bytes: ${tried.map(([c, r]) => `${c} conn ${r}/s`).join(', ')}; using ${best}`);
    const found = { best, tried };
    this.sweeps.set(key, found);
    return found;
  }

  async throughput(spec: ThroughputSpec): Promise<ThroughputOutcome> {
    const { settings } = this;
    const bare = await this.bare();
    const sweep = await this.sweep(spec.load, spec.bareBytes);
    const parleySpec: LoadSpec = { ...spec.load, url: spec.parley.url, durationSeconds: settings.durationSeconds };
    const bareSpec = this.bareSpec(bare.url, spec.load, spec.bareBytes, sweep.best, settings.durationSeconds);
    // Warm up Parley's JIT and caches on the measured request before the first round.
    await runLoad({ ...parleySpec, durationSeconds: 1 }, spec.parley.child.pid!);
    if (spec.afterParleyRound) await spec.afterParleyRound();
    const parleyRuns: LoadResult[] = [];
    const bareRuns: LoadResult[] = [];
    const ratios: number[] = [];
    for (let i = 0; i < settings.rounds; i++) {
      const parley = await runLoad(parleySpec, spec.parley.child.pid!);
      check(spec.name, parley);
      if (spec.afterParleyRound) await spec.afterParleyRound();
      if (spec.beforeBareRound) await spec.beforeBareRound(bare);
      const base = await runLoad(bareSpec, bare.child.pid!);
      check('bare server', base);
      if (spec.afterBareRound) await spec.afterBareRound(bare);
      parleyRuns.push(parley);
      bareRuns.push(base);
      ratios.push(round(parley.requestsPerSecond / base.requestsPerSecond, 4));
      this.log(`    ${spec.name} round ${i + 1}: Parley ${parley.requestsPerSecond}/s (server ${parley.cpu.server}, client ${parley.cpu.client}, other ${parley.cpu.other}); ` +
        `bare ${base.requestsPerSecond}/s (server ${base.cpu.server}, client ${base.cpu.client}, other ${base.cpu.other})`);
    }
    const measured: Measured = {
      generator: loadGenerator().description,
      pinning: pinning().description,
      parley: side(spec.load.connections, parleyRuns, parleyRuns.map((r) => r.requestsPerSecond)),
      bare: { ...side(sweep.best, bareRuns, bareRuns.map((r) => r.requestsPerSecond)), bytes: spec.bareBytes, sweep: sweep.tried },
      ratios,
    };
    const ratio = round(median(ratios), 3);
    const spread: [number, number] = [round(Math.min(...ratios), 3), round(Math.max(...ratios), 3)];
    return {
      figure: {
        name: spec.name,
        value: Math.round(median(measured.parley.perRound)),
        unit: spec.unit,
        // The machine's limit is the bare server's best round: whatever else happens on the host
        // (other tenants, frequency changes) can only slow a round down, never speed it up, so the
        // median of a few rounds moves with the host and the best one much less. The ratio stays
        // the median of paired rounds, where such slowdowns hit both sides alike.
        baseline: Math.max(...measured.bare!.perRound),
        baselineOf: 'best round',
        ratio,
        spread,
        measured,
        warnings: warningsFor(measured, ratio, spread),
      },
      parleyRuns,
    };
  }

  async stop(): Promise<void> {
    await this.server?.stop();
  }
}

/** Median of a per-round figure of Parley's runs (latency, for instance), with the measurement it came from. */
export function fromRounds(name: string, unit: string, outcome: ThroughputOutcome, pick: (r: LoadResult) => number) {
  const { measured } = outcome.figure;
  return {
    name,
    value: round(median(outcome.parleyRuns.map(pick)), 2),
    unit,
    measured: measured ? { ...measured, bare: undefined, ratios: undefined } : undefined,
  };
}

/** Size in bytes of the body Parley answers this request with. */
export async function bodySize(url: string, init: RequestInit = {}): Promise<number> {
  const response = await fetch(url, init);
  const bytes = (await response.arrayBuffer()).byteLength;
  if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
  return bytes;
}
