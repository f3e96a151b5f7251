/**
 * Where a server's time went: the functions with the most self time in a V8 `.cpuprofile`
 * (written by `--cpu-prof`), optionally only over a window of the run (CLOCK_MONOTONIC
 * microseconds, the clock of V8's timestamps and of `process.hrtime`).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface HotFunction {
  name: string;
  /** Share of the window's samples spent in the function itself. */
  share: number;
}

export interface ProfileSummary {
  file: string;
  samples: number;
  /** Whether the samples were limited to the window (false: the window held none, so the whole run). */
  windowed: boolean;
  top: HotFunction[];
}

/** The newest `.cpuprofile` in `dir` written after `sinceMs` (epoch ms). */
export function newestProfile(dir: string, sinceMs: number): string | undefined {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => ({ path: join(dir, f), at: statSync(join(dir, f)).mtimeMs }))
    .filter((f) => f.at >= sinceMs)
    .sort((a, b) => b.at - a.at);
  return files[0]?.path;
}

/** The current time on the clock of profile timestamps, in µs. */
export function monotonicMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

export function summarizeProfile(file: string, window?: [number, number], count = 15): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const tally = (from: number, to: number) => {
    const hits = new Map<string, number>();
    let total = 0;
    let at = profile.startTime;
    for (let i = 0; i < profile.samples.length; i++) {
      at += profile.timeDeltas[i] ?? 0;
      if (at < from || at > to) continue;
      const frame = frames.get(profile.samples[i]!)!;
      const name = `${frame.functionName || '(anonymous)'} ${frame.url ? `${basename(frame.url)}:${frame.lineNumber + 1}` : ''}`.trim();
      hits.set(name, (hits.get(name) ?? 0) + 1);
      total++;
    }
    return { hits, total };
  };
  let windowed = window !== undefined;
  let { hits, total } = window ? tally(window[0], window[1]) : tally(-Infinity, Infinity);
  if (total === 0) {
    ({ hits, total } = tally(-Infinity, Infinity));
    windowed = false;
  }
  const top = [...hits]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, n]) => ({ name, share: Math.round((n / Math.max(total, 1)) * 1000) / 1000 }));
  return { file: basename(file), samples: total, windowed, top };
}
