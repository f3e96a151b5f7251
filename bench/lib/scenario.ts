/** What a benchmark scenario is, what it reports, and how it was measured. */
import type { RunningProcess } from './processes.js';
import type { CpuShares, LoadSpec } from './load.js';

/** How long and how often: a full run, or `--quick` to check the machinery. */
export interface Settings {
  quick: boolean;
  /** Seconds per measured run. */
  durationSeconds: number;
  /** Parley and the baseline alternate this many times (A B A B A B for 3). */
  rounds: number;
  /** Connection counts tried on the bare server, and seconds each. */
  sweepConnections: number[];
  sweepSeconds: number;
}

export const FULL: Settings = { quick: false, durationSeconds: 5, rounds: 5, sweepConnections: [16, 32, 64, 128, 256], sweepSeconds: 2 };
export const QUICK: Settings = { quick: true, durationSeconds: 1, rounds: 3, sweepConnections: [16, 64, 256], sweepSeconds: 1 };

export interface ThroughputSpec {
  /** The figure's name and unit. */
  name: string;
  unit: string;
  parley: RunningProcess;
  /** The request, sent the same way to Parley and (with its own connection count) to the bare server. */
  load: Omit<LoadSpec, 'url' | 'durationSeconds'>;
  /** Size of Parley's answer body: the bare server answers with as many bytes. */
  bareBytes: number;
  /** Runs after each of Parley's rounds, before the baseline's (e.g. let deliveries arrive). */
  afterParleyRound?: () => Promise<void>;
  /** Runs before each of the baseline's measured rounds, not before its calibration (e.g. park polls on it). */
  beforeBareRound?: (bare: RunningProcess) => Promise<void>;
  /** Runs after each of the baseline's rounds. */
  afterBareRound?: (bare: RunningProcess) => Promise<void>;
}

export interface ScenarioContext {
  settings: Settings;
  /** Write CPU profiles of the measured Parley process here (`--profile`). */
  profileDir?: string;
  log(line: string): void;
  /** Parley and the bare server alternately on the same request: the figure with its ratio, spread and CPU shares. */
  throughput(spec: ThroughputSpec): Promise<ThroughputOutcome>;
}

export interface ThroughputOutcome {
  figure: Figure;
  /** Parley's rounds, for figures derived from them (latency, sums). */
  parleyRuns: import('./load.js').LoadResult[];
}

/** One side (Parley or the baseline) of a measured figure. */
export interface SideMeasure {
  connections: number;
  /** The figure of each round. */
  perRound: number[];
  /** Mean CPU shares over the rounds (of one core each). */
  cpu: CpuShares;
  /** The highest client share of any round. */
  clientPeak: number;
}

export interface Measured {
  /** The program that made the load, e.g. `wrk 4.1.0, 1 thread`, or the client for fanout. */
  generator: string;
  /** Where the server and the client ran. */
  pinning: string;
  parley: SideMeasure;
  bare?: SideMeasure & {
    /** Body size the bare server answered with. */
    bytes?: number;
    /** Connection counts tried on the bare server and its figure at each. */
    sweep?: Array<[number, number]>;
  };
  /** Parley / bare for each round. */
  ratios?: number[];
}

export interface Figure {
  name: string;
  value: number;
  unit: string;
  /** The same figure for the bare uWS baseline, when the scenario measures one. */
  baseline?: number;
  /** How `baseline` was taken from the bare server's rounds (absent: their median, before 2026-11-24 09:10). */
  baselineOf?: 'best round';
  /** What `baseline` measured when it is not the bare uWS server (the cluster's: the embedded Parley). */
  baselineLabel?: string;
  /** Parley / baseline; for alternated figures the median of the rounds' ratios. */
  ratio?: number;
  /** Lowest and highest ratio of the rounds. */
  spread?: [number, number];
  measured?: Measured;
  /** Why this figure may not be what it claims (a saturated load generator, a ratio above 1, a busy machine). */
  warnings?: string[];
}

/** Ends a figure's warning when its scenario found the figure does not hold (the goals table then reads it as not valid). */
export const NOT_VALID = 'not a valid figure';

export interface ScenarioResult {
  scenario: string;
  description: string;
  figures: Figure[];
  notes: string[];
  /** What a scenario reports beyond figures (the mixed scenario's steps), for RESULTS.md's headline. */
  detail?: unknown;
}

export interface Scenario {
  name: string;
  description: string;
  /** Why it cannot run on this machine (a missing program); a run of every scenario then skips it. */
  unavailable?(): string | undefined;
  run(context: ScenarioContext): Promise<ScenarioResult>;
}

export function round(value: number, digits = 1): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Thresholds of the warnings. */
export const CLIENT_SATURATED = 0.9;
export const OTHER_LOAD = 0.15;

/** The warnings a figure earns from its CPU shares and ratio. */
export function warningsFor(measured: Measured, ratio: number | undefined, spread: [number, number] | undefined, ratioIsTime = false): string[] {
  const warnings: string[] = [];
  const pct = (share: number) => `${Math.round(share * 100)}%`;
  if (measured.parley.clientPeak > CLIENT_SATURATED) warnings.push(`the client used ${pct(measured.parley.clientPeak)} of its core while measuring Parley`);
  if (measured.bare && measured.bare.clientPeak > CLIENT_SATURATED) warnings.push(`the client used ${pct(measured.bare.clientPeak)} of its core while measuring the baseline: the baseline may be the client's limit`);
  const range = spread ? ` (rounds ${spread[0]}–${spread[1]})` : '';
  if (ratio !== undefined && !ratioIsTime && ratio > 1) warnings.push(`ratio above 1${range}: the baseline is not the limit of the machine`);
  if (ratio !== undefined && ratioIsTime && ratio < 1) warnings.push(`Parley took less time than the baseline${range}: the baseline is not the limit of the machine`);
  const other = Math.max(measured.parley.cpu.other, measured.bare?.cpu.other ?? 0);
  if (other > OTHER_LOAD) warnings.push(`other processes used ${pct(other)} of a core on the measured cores: noisy`);
  return warnings;
}
