/**
 * A data export pending when the server stops is settled on the next start, as Zulip's
 * deferred-work worker settles a redelivered export: one that was under way is marked failed
 * (after a graceful stop, and after kill -9), one that had not begun is made; either way the
 * administrators' queues (kept across the restart) hear it in a `realm_export` event.
 *
 * To stop the server while an export is under way, without luck: the export reads every uploaded
 * file, and one upload's bytes on disk are replaced by a named pipe, so the export waits on it
 * once it has recorded itself as started; the test sees the export open the pipe, then stops.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync, readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'tap';
import { createHash } from 'node:crypto';
import { login, type Api } from '../helpers/client.js';
import { delay, ofType, register, take, type Queue } from '../helpers/events.js';
import { durableServerEnv, exited, killAndRemove, startProcess } from '../helpers/process.js';
import { clientFor, startTestServer } from '../helpers/server.js';
import { uploaded } from '../helpers/uploads.js';

const HELD = 'bytes the export will wait for';
/** A process start on a machine shared with other test runs can take longer than the helper's usual limit. */
const START_LIMIT_MS = 60_000;

function find(dir: string, name: string): string | undefined {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      const found = find(path, name);
      if (found) return found;
    } else if (entry.name === name) return path;
  }
  return undefined;
}

/** Uploads a file and turns its bytes on disk into a named pipe: reading it waits for a writer. */
async function holdAnUpload(api: Api, dataDir: string): Promise<string> {
  await uploaded(api, 'held.txt', HELD, 'text/plain');
  const path = find(dataDir, createHash('sha256').update(HELD).digest('hex'));
  if (!path) throw new Error('the uploaded file is not on disk');
  unlinkSync(path);
  execFileSync('mkfifo', [path]);
  return path;
}

/** Waits until something (the export) opens the pipe to read; the returned writer end keeps it waiting until closed. */
async function readerOf(pipe: string): Promise<number> {
  const until = Date.now() + 60_000;
  for (;;) {
    try {
      return openSync(pipe, constants.O_WRONLY | constants.O_NONBLOCK);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENXIO' || Date.now() > until) throw error;
      await delay(20);
    }
  }
}

/** The exports `ids` as the newest `realm_export` event shows them, polled until that event shows none of them pending. */
async function settled(queue: Queue, ids: number[]): Promise<any[]> {
  const until = Date.now() + 60_000;
  let newest: any[] = [];
  while (Date.now() < until) {
    newest = ofType(await take(queue), 'realm_export').at(-1)?.exports ?? newest;
    const found = ids.map((id) => newest.find((e: any) => e.id === id));
    if (found.every((e) => e && !e.pending)) return found;
    await delay(50);
  }
  throw new Error('no realm_export event settled the exports');
}

test('an export under way at a kill -9 is marked failed on the next start', async (t) => {
  const { dataDir, env } = await durableServerEnv({ PARLEY_LOG_LEVEL: 'fatal' });
  // The organization's first start (seeding, password hashing) is made in this process, without
  // the process start's time limit, which a loaded machine can exceed; the process opens it after.
  await (await startTestServer({}, { dataDir, port: Number(env.PARLEY_PORT) })).stop();
  let server = await startProcess(env, START_LIMIT_MS);
  let writer: number | undefined;
  t.teardown(async () => {
    await killAndRemove(server.child, dataDir);
    if (writer !== undefined) closeSync(writer);
  });
  const iago = await login(server.url, 'iago@example.com');
  const desdemona = await login(server.url, 'desdemona@example.com');
  const pipe = await holdAnUpload(iago, dataDir);
  const queue = await register(desdemona, { event_types: ['realm_export'] });
  const requested = await iago.post('/export/realm');
  t.equal(requested.status, 200, JSON.stringify(requested.body));
  writer = await readerOf(pipe);
  t.same((await iago.get('/export/realm')).body.exports.map((e: any) => [e.id, e.pending]), [[requested.body.id, true]], 'under way');

  server.child.kill('SIGKILL');
  await exited(server.child);
  // The pipe goes before the start: nothing then may wait on it, only the record says the export was under way.
  closeSync(writer);
  writer = undefined;
  unlinkSync(pipe);
  server = await startProcess(env, START_LIMIT_MS);
  const [failed] = await settled(queue, [requested.body.id]);
  t.type(failed.failed_timestamp, 'number', 'failed, on the queue kept across the restart');
  t.equal(failed.export_url, null);
  const listed = (await desdemona.get('/export/realm')).body.exports;
  t.same(listed.map((e: any) => [e.id, e.pending, typeof e.failed_timestamp]), [[requested.body.id, false, 'number']]);
});

test('after a graceful stop: an export under way fails, one not yet begun is made', async (t) => {
  let server = await startTestServer();
  let writer: number | undefined;
  t.teardown(async () => {
    if (writer !== undefined) closeSync(writer);
    await server.destroy();
  });
  const iago = clientFor(server, 'iago@example.com');
  const desdemona = clientFor(server, 'desdemona@example.com');
  const pipe = await holdAnUpload(iago, server.dataDir);
  const queue = await register(desdemona, { event_types: ['realm_export'] });
  const underWay = (await iago.post('/export/realm')).body.id;
  writer = await readerOf(pipe);
  // The second request is recorded, and the server stops before its export begins.
  const run = server.services.background.run;
  server.services.background.run = () => undefined;
  const notBegun = (await iago.post('/export/realm')).body.id;
  server.services.background.run = run;
  t.same(ofType(await take(queue), 'realm_export').at(-1).exports.map((e: any) => [e.id, e.pending]), [[underWay, true], [notBegun, true]]);

  await server.stop();
  // The pipe goes before the start: the export made then would wait on it too.
  closeSync(writer);
  writer = undefined;
  unlinkSync(pipe);
  server = await startTestServer({}, { dataDir: server.dataDir, port: server.port });
  const [failed, made] = await settled(queue, [underWay, notBegun]);
  t.type(failed.failed_timestamp, 'number', 'the one under way failed');
  t.same([made.failed_timestamp, made.deleted_timestamp], [null, null]);
  t.match(made.export_url, /\/user_avatars\/exports\/.*\.tar\.gz$/, 'the one not begun was made');
  const exports = (await clientFor(server, 'desdemona@example.com').get('/export/realm')).body.exports;
  t.same(exports.map((e: any) => [e.id, e.pending, e.failed_timestamp === null]), [[underWay, false, false], [notBegun, false, true]]);
});
