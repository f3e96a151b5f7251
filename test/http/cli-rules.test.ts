/**
 * The admin CLI: a directory without an organization is refused (never silently given a new
 * one), and accounts follow the API's rules (one check, actions/users checkNewUser, for both).
 */
import { test } from 'tap';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/process.js';
import { clientFor, startTestServer, tempDataDir } from '../helpers/server.js';

test('admin commands on a directory without an organization refuse, naming it, and create nothing', async (t) => {
  const scratch = tempDataDir();
  t.teardown(() => rmSync(scratch, { recursive: true, force: true }));
  const mistyped = join(scratch, 'dtaa');
  const empty = join(scratch, 'empty');
  mkdirSync(empty);
  const attempts: [string, string[]][] = [
    [mistyped, ['list-users']],
    [mistyped, ['create-user', '--email', 'ann@example.com', '--name', 'Ann']],
    [empty, ['api-key', '--email', 'owner@example.com']],
  ];
  // In parallel: each is refused before it opens anything.
  const runs = await Promise.all(attempts.map(([dir, args]) => runCli(args, { PARLEY_DATA_DIR: dir })));
  for (const [i, [dir, args]] of attempts.entries()) {
    t.equal(runs[i]!.code, 2, `${args[0]} refused`);
    t.match(runs[i]!.stderr, `no organization in ${dir} (PARLEY_DATA_DIR)`, 'the message names the directory');
    t.equal(runs[i]!.stdout, '', 'and prints no credentials');
  }
  t.notOk(existsSync(mistyped), 'the mistyped directory was not created');
  t.same(readdirSync(empty), [], 'the empty directory is left empty');
  const init = await runCli(['init'], { PARLEY_DATA_DIR: empty });
  t.equal(init.code, 0, init.stderr);
  t.match(init.stdout, /Created a new organization/, 'init is the command that creates one');
  const listed = await runCli(['list-users'], { PARLEY_DATA_DIR: empty });
  t.equal(listed.code, 0, listed.stderr);
  t.match(listed.stdout, /owner@example\.com\tOwner\towner/);
});

test('the CLI applies the API\'s account rules', async (t) => {
  const server = await startTestServer();
  let current = server;
  t.teardown(() => current.destroy());
  await server.stop();
  const env = { PARLEY_DATA_DIR: server.dataDir };
  const cases: [string[], RegExp][] = [
    [['--email', 'not-an-email', '--name', 'Ann', '--password', 'long-enough'], /Invalid address: not-an-email/],
    [['--email', 'ann@example.com', '--name', 'Ann', '--password', 'x'], /The password is too weak\./],
  ];
  for (const [args, message] of cases) {
    const run = await runCli(['create-user', ...args], env);
    t.equal(run.code, 2, `refused: ${args.join(' ')}`);
    t.match(run.stderr, message);
  }
  const weak = await runCli(['reset-password', '--email', 'hamlet@example.com', '--password', 'abc'], env);
  t.equal(weak.code, 2, 'a too short new password is refused');
  t.match(weak.stderr, /The password is too weak\./);
  const created = await runCli(['create-user', '--email', ' ann@example.com ', '--name', ' Ann Smith ', '--password', 'long-enough'], env);
  t.equal(created.code, 0, created.stderr);

  // The same rules answer through the API, where they come from.
  const restarted = (current = await server.restart());
  const api = clientFor(restarted, 'iago@example.com');
  const refused = await api.post('/users', { email: 'bob@example.com', password: 'x', full_name: 'Bob' });
  t.equal(refused.status, 400);
  t.equal(refused.body.msg, 'The password is too weak.');
  const refusedEmail = await api.post('/users', { email: 'not-an-email', password: 'long-enough', full_name: 'Bob' });
  t.equal(refusedEmail.body.msg, 'Invalid address: not-an-email');
  const ann = restarted.services.org.users.byEmail('ann@example.com');
  t.equal(ann?.fullName, 'Ann Smith', 'the CLI stored the cleaned address and name');
});
