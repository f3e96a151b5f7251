/**
 * The load generator: wrk (one thread, pinned to the client's core) when installed, autocannon in
 * the runner process otherwise; either way the same request for Parley and the baseline, and the
 * CPU time of the server, of the client side and of everybody else on the two cores.
 */
import autocannon from 'autocannon';
import { busySeconds, coreTimes, processCpuSeconds, selfCpuSeconds } from './cpu.js';
import { measuredCores, onCore, pinning } from './pinning.js';
import { runWrk, wrkVersion, type WrkOutcome } from './wrk.js';

export interface LoadSpec {
  url: string;
  method?: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Each request takes the next of these in turn (a different body or authorization). */
  variants?: ReadonlyArray<{ headers?: Record<string, string>; body?: string }>;
  connections: number;
  durationSeconds: number;
  /** Sum the number after `"<field>":` in every 200 answer (`LoadResult.sum`). */
  sumField?: string;
  /** Note each 200 answer's message id and when the client read it (`LoadResult.acks`). */
  recordIds?: boolean;
}

/** CPU used during one measurement, as shares of one core (1 = a whole core for the whole time). */
export interface CpuShares {
  /** The server under test. */
  server: number;
  /** The load generator plus the runner (the long-poll clients live there), all on the client's core. */
  client: number;
  /** Everything else on the two cores: other processes, interrupts. */
  other: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  requests: number;
  errors: number;
  non2xx: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  bytesPerResponse: number;
  durationSeconds: number;
  sum: number;
  /** Message id → when the client read its answer, on the clock of `performance.now()`. */
  acks: Map<number, number>;
  cpu: CpuShares;
}

export interface Generator {
  name: 'wrk' | 'autocannon';
  /** For the results: which program, and where it ran. */
  description: string;
}

let generator: Generator | undefined;

/** wrk when installed (unless BENCH_LOAD_GENERATOR=autocannon), else autocannon. */
export function loadGenerator(): Generator {
  if (!generator) {
    const wrk = process.env.BENCH_LOAD_GENERATOR === 'autocannon' ? undefined : wrkVersion();
    generator = wrk
      ? { name: 'wrk', description: `${wrk}, 1 thread` }
      : { name: 'autocannon', description: 'autocannon, in the runner process' };
  }
  return generator;
}

export const WRK_MISSING = 'wrk is not installed, so autocannon (in the runner, a Node process) drives the load and may be the bottleneck;\n' +
  'install wrk for figures that measure the server: `sudo apt-get install -y wrk` (Debian/Ubuntu) or build it from https://github.com/wg/wrk\n';

/** A measurement as either generator reports it (wrk's own fields, its CPU time renamed). */
interface Generated extends Omit<WrkOutcome, 'cpuSeconds'> {
  /** CPU seconds of a load-generator process other than the runner. */
  ownCpuSeconds: number;
}

async function withWrk(spec: LoadSpec): Promise<Generated> {
  const outcome = await runWrk(
    spec.url,
    { method: spec.method ?? 'GET', path: spec.path, headers: spec.headers ?? {}, body: spec.body, variants: spec.variants, sumField: spec.sumField, recordIds: spec.recordIds },
    spec.connections,
    spec.durationSeconds,
    (cmd, args) => onCore(pinning().clientCore, cmd, args),
  );
  // wrk's clock is CLOCK_MONOTONIC, like process.hrtime; move its times onto performance.now().
  const offset = Number(process.hrtime.bigint()) / 1e6 - performance.now();
  const acks = new Map<number, number>();
  for (const [id, at] of outcome.acks) acks.set(id, at - offset);
  return { ...outcome, acks, ownCpuSeconds: outcome.cpuSeconds };
}

async function withAutocannon(spec: LoadSpec): Promise<Generated> {
  let turn = 0;
  let sum = 0;
  const acks = new Map<number, number>();
  const sumPattern = spec.sumField ? new RegExp(`"${spec.sumField}":(\\d+)`) : undefined;
  const variants = spec.variants;
  const result = await autocannon({
    url: spec.url,
    connections: spec.connections,
    duration: spec.durationSeconds,
    requests: [
      {
        method: spec.method ?? 'GET',
        path: spec.path,
        headers: spec.headers,
        body: spec.body,
        // autocannon calls these unconditionally once given, so only pass them when needed.
        ...(variants?.length
          ? {
              setupRequest: (request: { headers?: Record<string, string>; body?: string }) => {
                const variant = variants[turn++ % variants.length];
                request.headers = { ...request.headers, ...variant.headers };
                if (variant.body !== undefined) request.body = variant.body;
                return request;
              },
            }
          : {}),
        ...(sumPattern || spec.recordIds
          ? {
              onResponse: (status: number, text: string) => {
                if (status !== 200) return;
                if (sumPattern) sum += Number(sumPattern.exec(text)?.[1] ?? 0);
                if (spec.recordIds) {
                  const id = /"id":(\d+)/.exec(text)?.[1];
                  if (id) acks.set(Number(id), performance.now());
                }
              },
            }
          : {}),
      },
    ],
  } as never);
  const r = result as unknown as {
    requests: { total: number };
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    latency: { p50: number; p99: number };
    throughput: { total: number };
  };
  return {
    requests: r.requests.total,
    durationSeconds: r.duration,
    bytes: r.throughput.total,
    errors: r.errors,
    non2xx: r.non2xx,
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    sum,
    acks,
    ownCpuSeconds: 0,
  };
}

/** One measurement of `spec` against the server whose process is `serverPid`. */
export async function runLoad(spec: LoadSpec, serverPid: number): Promise<LoadResult> {
  const serverBefore = processCpuSeconds(serverPid);
  const selfBefore = selfCpuSeconds();
  const coresBefore = coreTimes();
  const started = performance.now();
  const generated = loadGenerator().name === 'wrk' ? await withWrk(spec) : await withAutocannon(spec);
  const wall = (performance.now() - started) / 1000;
  const server = processCpuSeconds(serverPid) - serverBefore;
  const client = selfCpuSeconds() - selfBefore + generated.ownCpuSeconds;
  const cores = measuredCores();
  const busy = cores.length ? busySeconds(coresBefore, coreTimes(), cores) : server + client;
  const share = (seconds: number) => Math.round((seconds / wall) * 100) / 100;
  return {
    requestsPerSecond: Math.round(generated.requests / generated.durationSeconds),
    requests: generated.requests,
    errors: generated.errors,
    non2xx: generated.non2xx,
    latencyP50Ms: Math.round(generated.latencyP50Ms * 100) / 100,
    latencyP99Ms: Math.round(generated.latencyP99Ms * 100) / 100,
    bytesPerResponse: generated.requests ? Math.round(generated.bytes / generated.requests) : 0,
    durationSeconds: generated.durationSeconds,
    sum: generated.sum,
    acks: generated.acks,
    cpu: { server: share(server), client: share(client), other: share(Math.max(0, busy - server - client)) },
  };
}
