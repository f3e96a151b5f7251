/** Starting and stopping the servers a benchmark measures, on the server's core: Parley on a data directory, and the bare uWS baseline. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { processCpuSeconds } from './cpu.js';
import { onCore, pinning } from './pinning.js';
import { freePort } from '../../test/helpers/temp.js';

// A port below the kernel's ephemeral range: the bench's short version runs inside the test suite,
// where an outgoing connection of another test could take a port listen(0) handed out.
export { freePort };

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PARLEY_MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));
const BARE_UWS = fileURLToPath(new URL('../bare-uws.js', import.meta.url));

export interface MemoryReport {
  rss: number;
  heapUsed: number;
  heapTotal: number;
}

/**
 * Asks a Parley process (started with --expose-gc) to collect garbage and report its memory
 * (a `memory {…}` line on stderr, see src/main.ts); resolves with the report.
 */
export function collectGarbage(child: ChildProcess): Promise<MemoryReport> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString();
      const line = buffer.split('\n').find((l) => l.startsWith('memory '));
      if (!line) return;
      child.stderr!.off('data', onData);
      clearTimeout(timer);
      // Let the allocator hand back what the collection freed before RSS is read (the report's own
      // RSS is from the moment the collection ended).
      const report = JSON.parse(line.slice('memory '.length)) as MemoryReport;
      setTimeout(() => resolve({ ...report, rss: rssOf(child.pid!) || report.rss }), 500);
    };
    const timer = setTimeout(() => reject(new Error('no memory report from the server')), 10000);
    child.stderr!.on('data', onData);
    child.kill('SIGUSR2');
  });
}

/** Resident memory of a process in bytes (Linux /proc). */
export function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
  return kb ? Number(kb) * 1024 : 0;
}

export interface RunningProcess {
  child: ChildProcess;
  url: string;
  port: number;
  /** Milliseconds from spawn to the ready line. */
  startupMs: number;
  stop(): Promise<void>;
}

function waitForLine(child: ChildProcess, pattern: RegExp, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    let errors = '';
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}; stderr: ${errors.slice(-2000)}`)), timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const match = buffer.split('\n').find((line) => pattern.test(line));
      if (match) {
        clearTimeout(timer);
        resolve(match);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`process exited with ${code} before ${pattern}; stderr: ${errors.slice(-2000)}`));
    });
  });
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 15000).unref();
    });
}

export interface ParleyOptions {
  dataDir: string;
  sync: boolean;
  /** Write a CPU profile into this directory. */
  profileDir?: string;
  env?: Record<string, string>;
  /** Another build's `dist/src/main.js` to run instead of this one (a before-and-after on the same data). */
  main?: string;
}

export async function startParley(options: ParleyOptions): Promise<RunningProcess> {
  const port = await freePort();
  const args = ['--max-old-space-size=4096', '--expose-gc', ...(process.env.BENCH_NODE_FLAGS ? process.env.BENCH_NODE_FLAGS.split(' ') : [])];
  if (options.profileDir) args.push('--cpu-prof', `--cpu-prof-dir=${options.profileDir}`);
  const started = performance.now();
  // taskset execs node, so the child's pid is the server's.
  const [command, commandArgs] = onCore(pinning().serverCore, process.execPath, [...args, options.main ?? PARLEY_MAIN]);
  const child = spawn(command, commandArgs, {
    cwd: ROOT,
    env: {
      ...process.env,
      PARLEY_DATA_DIR: options.dataDir,
      PARLEY_PORT: String(port),
      PARLEY_SYNC: options.sync ? '1' : '0',
      PARLEY_RATE_LIMIT: '0',
      PARLEY_LOG_LEVEL: 'error',
      PARLEY_DRAIN_SECONDS: '0',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await waitForLine(child, /^Parley listening on /, 300000);
  const startupMs = performance.now() - started;
  return { child, url: `http://127.0.0.1:${port}`, port, startupMs, stop: stopper(child) };
}

export async function startBareUws(): Promise<RunningProcess> {
  const port = await freePort();
  const started = performance.now();
  const [command, args] = onCore(pinning().serverCore, process.execPath, [BARE_UWS]);
  const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, BARE_PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  await waitForLine(child, /^bare uWS listening/, 30000);
  return { child, url: `http://127.0.0.1:${port}`, port, startupMs: performance.now() - started, stop: stopper(child) };
}

/** Waits until the number a bare-server route answers (`GET url`, a count) satisfies `done`. */
export async function untilCount(url: string, done: (count: number) => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!done(Number(await (await fetch(url)).text()))) {
    if (performance.now() > deadline) throw new Error(`${what} within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Waits until a process has used under 10 ms of CPU in 300 ms (it has finished accepting and parking). */
export async function waitUntilQuiet(pid: number, timeoutMs = 60000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  let before = processCpuSeconds(pid);
  while (performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const now = processCpuSeconds(pid);
    if (now - before < 0.01) return;
    before = now;
  }
  throw new Error(`process ${pid} did not go quiet within ${timeoutMs} ms`);
}
