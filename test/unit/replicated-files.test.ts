/**
 * Cluster mode's file replica from the file store's side (an in-memory replica in place of the
 * files bucket): the sweep of objects no record names keeps the young, the named and the held,
 * and deletes nothing once the node no longer serves the organization; the backup's fetch of
 * bytes this node never held checks them against their hash.
 */
import { test, type Test } from 'tap';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { BackupReplicaError, copyMissingFiles } from '../../src/store/backup-files.js';
import { FileStore, sha256Of } from '../../src/store/files.js';
import type { FileReplica, ReplicaObject } from '../../src/store/file-replica.js';
import { tempDataDir } from '../helpers/temp.js';

const GRACE = 60_000;

/** A temporary directory, removed after the test. */
function scratch(t: Test): string {
  const dir = tempDataDir();
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A replica holding objects in memory, serving the organization while `serving` is true. */
function memoryReplica(now: number) {
  const objects = new Map<string, { data: Buffer; putAt: number }>();
  const state = { serving: true, reachable: true };
  const replica: FileReplica = {
    async put(sha, data) {
      objects.set(sha, { data, putAt: now });
    },
    async get(sha) {
      if (!state.reachable) throw new Error('unreachable');
      return objects.get(sha)?.data;
    },
    delete(sha) {
      objects.delete(sha);
    },
    async list(): Promise<ReplicaObject[]> {
      return [...objects].map(([sha, object]) => ({ sha, putAt: object.putAt }));
    },
    async deleteUnnamed(shas, unnamed) {
      let removed = 0;
      for (const sha of shas) {
        if (!state.serving) break;
        if (unnamed(sha) && objects.delete(sha)) removed++;
      }
      return removed;
    },
    sweep: { everyMs: 3_600_000, graceMs: GRACE },
  };
  return { replica, objects, state };
}

test("the replica's sweep takes only old objects that no record names and no upload holds, and only while serving", async (t) => {
  const now = Date.now();
  const { replica, objects, state } = memoryReplica(now);
  const files = new FileStore(scratch(t), replica);
  await files.open();
  const old = now - GRACE - 1000;
  const orphan = Buffer.from('an orphan: its owner died before the record');
  const named = Buffer.from('named by an attachment');
  const young = Buffer.from('put a moment ago, its record on the way');
  objects.set(sha256Of(orphan), { data: orphan, putAt: old });
  objects.set(sha256Of(named), { data: named, putAt: old });
  objects.set(sha256Of(young), { data: young, putAt: now - 1000 });
  // An upload under way of bytes that are also an old object: held until its record is written.
  const held = await files.put(Buffer.from('an upload under way'));
  objects.get(held.sha)!.putAt = old;
  const inUse = (sha: string) => sha === sha256Of(named);

  state.serving = false;
  t.equal(await files.sweepReplica(inUse, now), 0, 'a node that no longer serves the organization deletes nothing');
  t.equal(objects.size, 4);

  state.serving = true;
  t.equal(await files.sweepReplica(inUse, now), 1, 'one object swept');
  t.notOk(objects.has(sha256Of(orphan)), 'the old object no record names is gone');
  t.ok(objects.has(sha256Of(named)), 'a named one is kept');
  t.ok(objects.has(sha256Of(young)), 'one younger than the grace is kept');
  t.ok(objects.has(held.sha), 'one an upload holds is kept');

  held.release();
  t.equal(await files.sweepReplica(inUse, now), 1, 'once released and still named by nothing, it goes too');
  t.equal(await files.sweepReplica(inUse, now + GRACE), 1, 'and the young one once it is older than the grace');
  t.same([...objects.keys()], [sha256Of(named)]);
});

test('bytes this node never held are fetched for a backup, checked against their hash', async (t) => {
  const { replica, objects, state } = memoryReplica(Date.now());
  const files = new FileStore(scratch(t), replica);
  await files.open();
  const data = Buffer.from('uploaded through another node');
  objects.set(sha256Of(data), { data, putAt: 0 });
  t.same(await files.fetchFromReplica(sha256Of(data)), data, 'the bytes');
  const wrong = 'a'.repeat(64);
  objects.set(wrong, { data, putAt: 0 });
  t.equal(await files.fetchFromReplica(wrong), undefined, 'bytes that are not what their name says are not taken');
  t.equal(await files.fetchFromReplica('b'.repeat(64)), undefined, 'nor bytes the replica does not hold');
  state.reachable = false;
  await t.rejects(files.fetchFromReplica(sha256Of(data)), { code: 'SERVER_NOT_READY' }, 'an unreachable replica is an error, not a missing file');
  t.notOk(await files.sizeOf(files.blobPath(sha256Of(data))), 'nothing was kept on this node');
});

test("a backup takes from the replica what this node never held, and refuses, naming them, when it cannot be reached", async (t) => {
  const { replica, objects, state } = memoryReplica(Date.now());
  const files = new FileStore(scratch(t), replica);
  await files.open();
  const local = await files.put(Buffer.from('uploaded here'));
  local.release();
  const remote = Buffer.from('uploaded through another node');
  objects.set(sha256Of(remote), { data: remote, putAt: 0 });
  const lost = 'c'.repeat(64);
  const named = new Set([local.sha, sha256Of(remote), lost]);
  const root = join(scratch(t), 'uploads');
  const copied = await copyMissingFiles(files, root, named, 7);
  t.same({ files: copied.files, missing: copied.missing }, { files: 1, missing: [lost] }, 'the remote file copied; the one found nowhere reported');
  t.ok(readFileSync(join(root, 'blobs', sha256Of(remote).slice(0, 2), sha256Of(remote))).equals(remote), 'with its bytes');
  t.notOk(existsSync(join(root, 'blobs', local.sha.slice(0, 2), local.sha)), 'what this node holds is left to the ordinary copy');
  state.reachable = false;
  const refused = await copyMissingFiles(files, join(scratch(t), 'uploads'), named, 7).then(() => undefined, (error: unknown) => error);
  t.ok(refused instanceof BackupReplicaError, 'the backup is refused');
  const message = (refused as Error).message;
  t.match(message, /^2 uploaded file\(s\) of organization 7 that this node never held cannot be fetched, the files bucket cannot be reached/);
  for (const sha of [sha256Of(remote), lost]) t.match(message, `7/${sha}`, 'naming each');
});
