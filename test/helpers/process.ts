/** Runs the real server process (dist/src/main.js) for the tests that must kill or signal it. */
import { spawn, type ChildProcess } from 'node:child_process';
import { REPO_ROOT } from './events.js';
/** Starts the real server process; resolves with its URL once it printed its ready line. */
export function startProcess(env: Record<string, string>): Promise<{ child: ChildProcess; url: string; stderr: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['dist/src/main.js'], { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const stderr: string[] = [];
    let buffered = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start: ${stderr.join('')}`));
    }, 20_000);
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
