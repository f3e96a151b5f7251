/**
 * Starting a server: the ready line and the demo organization, a first start without the demo
 * (an owner and credentials printed once), and the real process (graceful SIGTERM, no start on the slow fallback).
 */
import { test } from 'tap';
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Api, login } from '../helpers/client.js';
import { freePort, startTestServer, tempDataDir } from '../helpers/server.js';
import { childEnv } from '../helpers/temp.js';
import { world } from '../helpers/world.js';

test('ready line', async (t) => {
  t.test('ready line and the demo organization', async (t) => {
    const { server, org } = await world(t);
    t.same(server.printed.at(-1), `Parley listening on ${server.url}`);
    const users = [...org.users.all()];
    t.equal(users.length, 9, 'eight people and the notification bot');
    t.same(users.map((u) => [u.deliveryEmail, u.role]).slice(0, 8), [
      ['desdemona@example.com', 100],
      ['iago@example.com', 200],
      ['shiva@example.com', 300],
      ['hamlet@example.com', 400],
      ['othello@example.com', 400],
      ['cordelia@example.com', 400],
      ['prospero@example.com', 400],
      ['polonius@example.com', 600],
    ]);
    t.ok(users.every((u) => u.passwordHash === null || u.passwordHash.startsWith('scrypt$')), 'passwords are stored hashed');
  });
});

test('first start without the demo creates an owner and prints the credentials once', async (t) => {
  const server = await startTestServer({ PARLEY_DEMO: '0' });
  t.teardown(() => server.destroy());
  const text = server.printed.join('\n');
  const email = /email:\s+(\S+)/.exec(text)?.[1];
  const password = /password:\s+(\S+)/.exec(text)?.[1];
  const key = /API key:\s+(\S+)/.exec(text)?.[1];
  t.ok(email && password && key, 'email, password and key printed');
  const viaKey = await new Api(server.url, email, key).get('/users/me');
  t.equal(viaKey.body.role, 100, 'the owner');
  const viaPassword = await login(server.url, email!, password!);
  t.equal(viaPassword.apiKey, key);
  const restarted = await server.restart();
  t.notOk(restarted.printed.some((line) => line.includes('password')), 'not printed again');
  await restarted.stop();
});

test('the real process: ready line, graceful SIGTERM, and no start on the slow fallback', async (t) => {
  const main = fileURLToPath(new URL('../../src/main.js', import.meta.url));
  const dataDir = tempDataDir();
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const run = (env: Record<string, string>) => {
    const child = spawn(process.execPath, [main], { env: childEnv({ PARLEY_DATA_DIR: dataDir, PARLEY_DRAIN_SECONDS: '0', ...env }), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    return { child, exited, output: () => out, errors: () => err };
  };

  const port = await freePort();
  const server = run({ PARLEY_PORT: String(port), PARLEY_DEMO: '1' });
  while (!server.output().includes('Parley listening on')) {
    if (server.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  t.match(server.output(), new RegExp(`^Created the demo organization.*\\nParley listening on http://127\\.0\\.0\\.1:${port}\\n$`, 's'), 'the ready line, once ready');
  const answer = await fetch(`http://127.0.0.1:${port}/api/v1/server_settings`);
  t.equal(answer.status, 200);
  server.child.kill('SIGTERM');
  t.equal(await server.exited, 0, 'SIGTERM: a clean exit');

  const fallback = run({ PARLEY_PORT: String(await freePort()), UWS_USE_FALLBACK: '1' });
  t.equal(await fallback.exited, 1, 'refuses to run on the pure-JS fallback');
  t.match(fallback.errors(), /native binding did not load/);
});
