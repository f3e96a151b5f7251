/**
 * A free port and a temporary data directory, without loading the server: the files that only
 * run the server process (crash, disk, operator tests) import this, not server.ts.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A port no one listens on, picked at random below the kernel's ephemeral range. A port of that
 * range (what listen(0) hands out) is also the local port of outgoing connections: between the
 * probe closing and the server listening, one of the tests' own requests could take it (CI saw
 * it once). Below the range only another test's pick can, and the probe and startTestServer's
 * retry cover that.
 */
export async function freePort(): Promise<number> {
  const [low, high] = pickableRange();
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (!FETCH_BLOCKED.has(port) && (await canListen(port))) return port;
  }
  throw new Error(`no free port between ${low} and ${high} after 50 tries`);
}

/**
 * Ports that fetch refuses to connect to (a "bad port" in the Fetch standard's port blocking)
 * within the ranges `pickableRange` gives: 10080 is the only one at 10,000 and above. A server
 * given it fails every fetch with "bad port" (seen once in a full `npm test`, in read-state's tests).
 */
const FETCH_BLOCKED = new Set([10080]);

/** Ports below the ephemeral range (/proc/sys/net/ipv4/ip_local_port_range), above the well-known ones. */
function pickableRange(): [number, number] {
  let ephemeralLow = 32768;
  try {
    ephemeralLow = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || ephemeralLow;
  } catch {
    // Not Linux: the IANA ephemeral range starts at 49152, and 32768 is below it too.
  }
  return ephemeralLow > 12000 ? [10000, ephemeralLow] : [ephemeralLow + 20000, 65000];
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'parley-test-'));
}

/**
 * Node's arguments before the script of a server or CLI process a test starts: the password-hash
 * cost of tests preloaded (test-hash-cost.ts), the same module instance the script then imports.
 */
export const TEST_NODE_ARGS: readonly string[] = ['--import', new URL('./test-hash-cost.js', import.meta.url).href];

/**
 * The environment of a server or CLI process a test starts: this process's, with `extra`, minus
 * the hook tap puts in NODE_OPTIONS for its own bookkeeping (@tapjs/processinfo, which records
 * each process for coverage; coverage is off). It costs every process 0.3 CPU-s at its start.
 */
export function childEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  const options = (env.NODE_OPTIONS ?? '').split(/\s+/).filter((option) => option && !option.includes('@tapjs/processinfo'));
  if (options.length > 0) env.NODE_OPTIONS = options.join(' ');
  else delete env.NODE_OPTIONS;
  return env;
}
