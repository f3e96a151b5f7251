/**
 * Backups hold the uploaded files too (a server started on one serves every file), and a backup
 * to a target that cannot be written fails at once, naming the path, and frees the slot.
 */
import { test } from 'tap';
import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { requestBackup } from '../../src/ops/control.js';
import { runCli } from '../helpers/process.js';
import { clientFor, startTestServer, tempDataDir } from '../helpers/server.js';
import { fetchRaw, uploaded } from '../helpers/uploads.js';

const BYTES = Buffer.from('the bytes of a report, kept in the backup\n'.repeat(50));

test('a backup holds the uploaded files: a server started on it serves them', async (t) => {
  const server = await startTestServer();
  const scratch = tempDataDir();
  t.teardown(async () => {
    await server.destroy();
    rmSync(scratch, { recursive: true, force: true });
  });
  const hamlet = clientFor(server, 'hamlet@example.com');
  const file = await uploaded(hamlet, 'report.txt', BYTES, 'text/plain');
  const sent = await hamlet.post('/messages', { type: 'stream', to: 'Denmark', topic: 'files', content: `[report](${file.url})` });
  t.equal(sent.status, 200);
  const env = { PARLEY_DATA_DIR: server.dataDir };

  const online = await runCli(['backup', join(scratch, 'online')], env);
  t.equal(online.code, 0, online.stderr);
  t.match(online.stdout, /from the running server: \d+ entries .* and 1 uploaded file/);
  await server.stop();
  const offline = await runCli(['backup', join(scratch, 'offline')], env);
  t.equal(offline.code, 0, offline.stderr);
  t.match(offline.stdout, /no server running.* and 1 uploaded file/);

  for (const name of ['online', 'offline']) {
    const restored = await startTestServer({}, { dataDir: join(scratch, name) });
    const answer = await fetchRaw(clientFor(restored, 'hamlet@example.com'), file.url);
    t.equal(answer.status, 200, `${name} backup: the file's URL answers`);
    t.ok(answer.bytes.equals(BYTES), `${name} backup: with the file's bytes`);
    await restored.stop();
  }
});

test('removals wait while a backup holds the files, and happen once it is done', async (t) => {
  const server = await startTestServer();
  const scratch = tempDataDir();
  t.teardown(async () => {
    await server.destroy();
    rmSync(scratch, { recursive: true, force: true });
  });
  const hamlet = clientFor(server, 'hamlet@example.com');
  const file = await uploaded(hamlet, 'short-lived.txt', 'gone soon', 'text/plain');
  const attachment = (await hamlet.get('/attachments')).body.attachments[0];
  // The removal asked for while the backup holds the files waits; it happens once the backup is done.
  const release = server.services.files.holdRemovals();
  t.equal((await hamlet.delete(`/attachments/${attachment.id}`)).status, 200);
  const sha = (await server.services.files.storedHashes())[0];
  t.ok(sha && existsSync(server.services.files.blobPath(sha)), 'kept while held');
  release();
  t.same(await server.services.files.storedHashes(), [], 'removed once released');
  t.equal((await fetchRaw(hamlet, file.url)).status, 404);
});

test('a backup to a target that cannot be written fails at once, names the path and frees the slot', async (t) => {
  const server = await startTestServer();
  const scratch = tempDataDir();
  t.teardown(async () => {
    chmodSync(scratch, 0o700);
    await server.destroy();
    rmSync(scratch, { recursive: true, force: true });
  });
  const env = { PARLEY_DATA_DIR: server.dataDir };

  // /proc/nope: Node's recursive mkdir never returns there, and the backup waited on it forever.
  const impossible = await runCli(['backup', '/proc/nope'], env);
  t.equal(impossible.code, 2, 'refused');
  t.match(impossible.stderr, /backup failed: \/proc\/\.nope\.partial-\S+: cannot be written/, `names the path: ${impossible.stderr.trim()}`);

  // A target below a file, and (when permissions bind this user) a read-only directory.
  writeFileSync(join(scratch, 'a-file'), 'x');
  const belowFile = await runCli(['backup', join(scratch, 'a-file', 'backup')], env);
  t.equal(belowFile.code, 2);
  t.match(belowFile.stderr, `${join(scratch, 'a-file')}: it is a file, not a directory`);
  const readOnly = join(scratch, 'read-only');
  mkdirSync(readOnly);
  chmodSync(readOnly, 0o555);
  const rootIgnoresModes = process.getuid?.() === 0;
  // Root writes through modes; /sys refuses even root.
  const unwritable = rootIgnoresModes ? '/sys/parley-backup' : join(readOnly, 'backup');
  const refused = await runCli(['backup', unwritable], env);
  t.equal(refused.code, 2);
  t.match(refused.stderr, /cannot be written: (permission denied|operation not permitted|the file system is read-only)/, refused.stderr.trim());
  t.match(refused.stderr, `${rootIgnoresModes ? '/sys' : readOnly}/.`, 'the path that could not be written');

  const after = await runCli(['backup', join(scratch, 'good')], env);
  t.equal(after.code, 0, `the slot is free again: ${after.stderr}`);
  t.same(readdirSync('/proc').filter((name) => name.startsWith('.nope')), [], 'nothing left behind');
  t.ok((await requestBackup(server.dataDir, join(scratch, 'again'))).entries > 0, 'and again through the socket');
});
