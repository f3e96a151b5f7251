/**
 * Logging never blocks or kills the server: with its log (stderr) on a device that is always
 * full (/dev/full answers every write with ENOSPC), the server starts, serves every request
 * (each one logged at `info`), and counts the lines it dropped in `parley_log_lines_dropped_total`.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { test } from 'tap';
import { DroppingDestination } from '../../src/log.js';
import { REPO_ROOT, delay } from '../helpers/events.js';
import { durableServerEnv, exited } from '../helpers/process.js';
import { freePort } from '../helpers/server.js';
import { childEnv } from '../helpers/temp.js';
import { rmSync } from 'node:fs';

const FULL = '/dev/full';

test('the log destination drops and counts what it cannot write, and never throws', { skip: existsSync(FULL) ? false : `${FULL} is missing` }, async (t) => {
  const fd = openSync(FULL, 'w');
  t.teardown(() => closeSync(fd));
  const destination = new DroppingDestination(fd);
  let accepted = 0;
  for (let i = 0; i < 100; i++) if (destination.write(`{"line":${i}}\n`)) accepted++;
  t.equal(accepted, 100, 'every write returns at once, accepted');
  const until = Date.now() + 60_000;
  while (destination.dropped < 100 && Date.now() < until) await delay(10);
  t.equal(destination.dropped, 100, 'every line dropped and counted');
  t.match(destination.lastError, /ENOSPC|no space/i);
  const small = new DroppingDestination(fd, 10);
  small.write('0123456789abcdef\n');
  t.equal(small.dropped, 1, 'a line over the buffer bound is dropped at once (a stalled reader never makes the server wait)');
});

test('a server whose log is on a full device goes on serving', { skip: existsSync(FULL) ? false : `${FULL} is missing` }, async (t) => {
  const metricsPort = await freePort();
  const { dataDir, env } = await durableServerEnv({ PARLEY_LOG_LEVEL: 'info', PARLEY_METRICS_PORT: String(metricsPort) });
  const log = openSync(FULL, 'w');
  const child = spawn(process.execPath, ['dist/src/main.js'], { cwd: REPO_ROOT, env: childEnv(env), stdio: ['ignore', 'pipe', log] });
  closeSync(log);
  t.teardown(async () => {
    child.kill('SIGKILL');
    await exited(child);
    rmSync(dataDir, { recursive: true, force: true });
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /Parley listening on (\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
  });
  let served = 0;
  for (let i = 0; i < 200; i++) if ((await fetch(`${url}/api/v1/server_settings`)).status === 200) served++;
  t.equal(served, 200, 'every request answered while no log line can be written');
  t.equal((await fetch(`${url}/health`)).status, 200);
  const until = Date.now() + 60_000;
  let dropped = 0;
  while (dropped < 200 && Date.now() < until) {
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    dropped = Number(/^parley_log_lines_dropped_total (\d+)/m.exec(text)?.[1] ?? 0);
    await delay(50);
  }
  t.ok(dropped >= 200, `the dropped lines are counted (${dropped})`);
  t.equal(child.exitCode, null, 'still running');
});
