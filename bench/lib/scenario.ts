/** What a benchmark scenario is and what it reports. */

export interface ScenarioContext {
  /** Write CPU profiles of the measured Parley process here (`--profile`). */
  profileDir?: string;
  log(line: string): void;
  /** The bare uWS figure for a load shape, measured once per run and shared by scenarios with that shape. */
  baseline(shape: BaselineShape): Promise<number>;
}

export interface BaselineShape {
  method: 'GET' | 'POST';
  connections: number;
  durationSeconds: number;
}

export interface Figure {
  name: string;
  value: number;
  unit: string;
  /** The same figure for the bare uWS baseline, when the scenario measures one. */
  baseline?: number;
  /** Parley / baseline for throughputs; baseline / Parley for times (so higher is better either way). */
  ratio?: number;
}

export interface ScenarioResult {
  scenario: string;
  description: string;
  figures: Figure[];
  notes: string[];
}

export interface Scenario {
  name: string;
  description: string;
  run(context: ScenarioContext): Promise<ScenarioResult>;
}

export const DURATION_SECONDS = 8;

export function round(value: number, digits = 1): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}
