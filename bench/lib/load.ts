/** The load generator: autocannon, driven programmatically, with the same settings for Parley and the baseline. */
import autocannon from 'autocannon';

export const LOAD_GENERATOR = 'autocannon';

export interface LoadSpec {
  url: string;
  method?: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  durationSeconds: number;
  /** Per-request variation (a different body or path each time). */
  setupRequest?: (request: { method?: string; path?: string; body?: string; headers?: Record<string, string> }, context: Record<string, unknown>) => unknown;
  onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
}

export interface LoadResult {
  requestsPerSecond: number;
  requests: number;
  errors: number;
  non2xx: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  bytesPerResponse: number;
}

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
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
        // autocannon calls these unconditionally once given, so only pass them when set.
        ...(spec.setupRequest ? { setupRequest: spec.setupRequest } : {}),
        ...(spec.onResponse ? { onResponse: spec.onResponse } : {}),
      },
    ],
  } as never);
  const r = result as unknown as {
    requests: { average: number; total: number };
    errors: number;
    non2xx: number;
    latency: { p50: number; p99: number };
    throughput: { total: number };
  };
  const total = r.requests.total;
  return {
    requestsPerSecond: Math.round(r.requests.average),
    requests: total,
    errors: r.errors,
    non2xx: r.non2xx,
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    bytesPerResponse: total ? Math.round(r.throughput.total / total) : 0,
  };
}
