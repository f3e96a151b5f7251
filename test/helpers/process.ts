/** Runs the real server process (dist/src/main.js) for the tests that must kill or signal it. */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { REPO_ROOT } from './events.js';
import { freePort, tempDataDir, TEST_NODE_ARGS, childEnv } from './temp.js';

/** The environment of a durable server process (PARLEY_SYNC=1) on a fresh data directory and a free port. */
export async function durableServerEnv(extra: Record<string, string> = {}): Promise<{ dataDir: string; env: Record<string, string> }> {
  const dataDir = tempDataDir();
  const port = await freePort();
  return { dataDir, env: { PARLEY_DATA_DIR: dataDir, PARLEY_PORT: String(port), PARLEY_DEMO: '1', PARLEY_SYNC: '1', PARLEY_RATE_LIMIT: '0', PARLEY_DRAIN_SECONDS: '0', ...extra } };
}

/** A test's teardown: kills the process if it still runs and deletes its data directory. */
export async function killAndRemove(child: ChildProcess, dataDir: string): Promise<void> {
  child.kill('SIGKILL');
  await exited(child);
  rmSync(dataDir, { recursive: true, force: true });
}
/**
 * Starts the real server process; resolves with its URL once it printed its ready line (within
 * `limitMs`: a start that takes 2 s alone can take ten times that on a loaded machine).
 */
export function startProcess(env: Record<string, string>, limitMs = 60_000): Promise<{ child: ChildProcess; url: string; stderr: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...TEST_NODE_ARGS, 'dist/src/main.js'], { cwd: REPO_ROOT, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    const stderr: string[] = [];
    let buffered = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start: ${stderr.join('')}`));
    }, limitMs);
    child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const match = /Parley listening on (\S+)/.exec(buffered);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1], stderr });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}): ${stderr.join('')}`));
    });
  });
}

export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Runs the admin CLI (dist/src/cli.js) with `env` added to this process's environment; resolves when it exits. */
export function runCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...TEST_NODE_ARGS, 'dist/src/cli.js', ...args], { cwd: REPO_ROOT, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs the server process to its exit (a start that must fail): its exit code and what it printed. */
export function runToExit(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...TEST_NODE_ARGS, 'dist/src/main.js'], { cwd: REPO_ROOT, env: childEnv({ PARLEY_DRAIN_SECONDS: '0', ...env }), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
