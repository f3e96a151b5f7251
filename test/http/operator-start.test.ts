/**
 * The real server process as an operator starts and stops it: a port in use is refused, every
 * bad setting is one line naming the variable with exit code 2, /health answers 503 "stopping"
 * through the drain period after SIGTERM, and PARLEY_DEMO on an organization says it is ignored.
 */
import { test } from 'tap';
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../helpers/events.js';
import { exited, runToExit, startProcess } from '../helpers/process.js';
import { freePort, tempDataDir, TEST_NODE_ARGS, childEnv } from '../helpers/temp.js';


test('a second server on a port in use is refused, and the first keeps all the traffic', async (t) => {
  const scratch = tempDataDir();
  const port = String(await freePort());
  const first = await startProcess({ PARLEY_DATA_DIR: join(scratch, 'first'), PARLEY_PORT: port, PARLEY_DEMO: '1', PARLEY_DRAIN_SECONDS: '0' });
  t.teardown(async () => {
    first.child.kill('SIGKILL');
    await exited(first.child);
    rmSync(scratch, { recursive: true, force: true });
  });
  const second = await runToExit({ PARLEY_DATA_DIR: join(scratch, 'second'), PARLEY_PORT: port });
  t.equal(second.code, 2, 'a non-zero exit');
  t.equal(second.stderr, `Parley cannot start: PARLEY_PORT="${port}" is not usable: cannot listen on 127.0.0.1:${port}: the port is in use (another Parley, or another program)\n`, 'one clear line');
  t.notMatch(second.stdout, /listening|password/, 'never listening, and no organization created');
  const login = async () => {
    const body = new URLSearchParams({ username: 'iago@example.com', password: 'parley-demo' });
    return (await fetch(`${first.url}/api/v1/fetch_api_key`, { method: 'POST', body })).status;
  };
  const statuses = await Promise.all(Array.from({ length: 8 }, login));
  t.same(statuses, Array(8).fill(200), 'every request reaches the first server');
});

test('a locked data directory is named, with the reason', async (t) => {
  const dataDir = tempDataDir();
  const running = await startProcess({ PARLEY_DATA_DIR: dataDir, PARLEY_PORT: String(await freePort()), PARLEY_DEMO: '1', PARLEY_DRAIN_SECONDS: '0' });
  t.teardown(async () => {
    running.child.kill('SIGKILL');
    await exited(running.child);
    rmSync(dataDir, { recursive: true, force: true });
  });
  const run = await runToExit({ PARLEY_DATA_DIR: dataDir, PARLEY_PORT: String(await freePort()) });
  t.equal(run.code, 2);
  t.equal(run.stderr, `Parley cannot start: PARLEY_DATA_DIR="${dataDir}" is not usable: ${dataDir}: the database is locked by another process (is a Parley server running on it?)\n`);
});

test('SIGTERM: /health answers 503 "stopping" through the drain period, requests are still served, then the process exits', async (t) => {
  const dataDir = tempDataDir();
  const drain = 5;
  const running = await startProcess({ PARLEY_DATA_DIR: dataDir, PARLEY_PORT: String(await freePort()), PARLEY_DEMO: '1', PARLEY_DRAIN_SECONDS: String(drain) });
  t.teardown(async () => {
    running.child.kill('SIGKILL');
    await exited(running.child);
    rmSync(dataDir, { recursive: true, force: true });
  });
  t.equal((await fetch(`${running.url}/health`)).status, 200, 'healthy before');
  const exitCode = new Promise<number | null>((resolve) => running.child.once('exit', (code) => resolve(code)));
  const signalled = performance.now();
  running.child.kill('SIGTERM');
  // The signal is handled on the server's next turn: wait for the answer to change.
  let health = await fetch(`${running.url}/health`);
  while (health.status === 200) health = await fetch(`${running.url}/health`);
  const seenAfter = (performance.now() - signalled) / 1000;
  t.equal(health.status, 503, 'a load balancer sees 503');
  t.match(await health.json(), { status: 'stopping' });
  const served = await fetch(`${running.url}/api/v1/server_settings`);
  t.equal(served.status, 200, `requests are still served while draining (503 seen ${seenAfter.toFixed(2)} s after the signal)`);
  t.equal(await exitCode, 0, 'then a clean exit');
  const stoppedAfter = (performance.now() - signalled) / 1000;
  t.ok(stoppedAfter >= drain, `not before the drain period ended (${stoppedAfter.toFixed(2)} s)`);
});

test('PARLEY_DEMO=1 on a data directory that holds an organization says it is ignored', async (t) => {
  const dataDir = tempDataDir();
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = { PARLEY_DATA_DIR: dataDir, PARLEY_PORT: String(await freePort()), PARLEY_DRAIN_SECONDS: '0' };
  const plain = await startProcess({ ...env, PARLEY_DEMO: '0' });
  plain.child.kill('SIGTERM');
  await exited(plain.child);
  const demo = spawn(process.execPath, [...TEST_NODE_ARGS, 'dist/src/main.js'], { cwd: REPO_ROOT, env: childEnv({ ...env, PARLEY_DEMO: '1' }), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  demo.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  while (!out.includes('Parley listening on') && demo.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 50));
  demo.kill('SIGTERM');
  await exited(demo);
  t.match(out, `PARLEY_DEMO=1 is ignored: ${dataDir} already holds the organization 'Parley'`);
});
