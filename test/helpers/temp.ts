/**
 * A free port and a temporary data directory, without loading the server: the files that only
 * run the server process (crash, disk, operator tests) import this, not server.ts.
 */
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
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
