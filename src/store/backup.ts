/**
 * Online backup: copies one consistent snapshot of the store, entry by entry, into a new
 * LevelDB directory, and the uploaded files beside it (`uploads/`), so that a server can be
 * started on it as it is.
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { copyMissingFiles, copyStoredFiles, UPLOADS_DIR, type UploadStores } from './backup-files.js';
import { DirectoryError, makeDirectory, reasonOf } from './directories.js';
import { uploadsDir } from './files.js';
import { basename, dirname, join, resolve } from 'node:path';
import { Level } from 'level';
import type { Database, SnapshotReader } from './database.js';
import { realmKeys } from './keys.js';
import { encode } from './codec.js';
import { allFileHashesCollector, fileHashCollector, indexCollector, indexKeysOf, organizationRange, SERVER_COUNTER_KEYS, storedFileOf } from './organization-scope.js';

export interface BackupResult {
  /** Absolute path of the backup. */
  dir: string;
  /** Entries written. */
  entries: number;
  /** Event queue entries left out (see EVENT_STATE). */
  omitted: number;
  bytes: number;
  /** Uploaded files copied (bytes and thumbnails), and their size. */
  files: number;
  fileBytes: number;
  /**
   * Files the records name that neither this node nor its replica holds (`<realmId>/<sha256>`):
   * the backup is written without them, and the CLI says so. Files a cluster node never fetched
   * are fetched from the files bucket (and the backup fails when it cannot be reached).
   */
  missingFiles: string[];
  seconds: number;
}

/** One organization to back up (restore.ts puts it back into a data directory holding others). */
export interface BackupScope {
  realmId: number;
  subdomain: string;
}

/** The target cannot take a backup (it holds something); nothing was written. */
export class BackupTargetError extends Error {}

/**
 * Entries per read and write. Each page costs an event-loop round trip, which a busy server
 * makes long, so pages are large; 4,000 entries (~200 KB) take a few ms of the loop to copy.
 */
const PAGE = 4000;

/**
 * Event queues and the event log are left out of a backup. A client's queue belongs to the
 * live server: restored into an older state, it would hand out event ids the client has
 * already seen (and so drops) and would not carry the changes made after the backup. Without
 * it the client gets BAD_EVENT_QUEUE_ID and registers again, with the restored state.
 */
const EVENT_STATE = (() => {
  const sample = realmKeys(0);
  const parts = [sample.queuePrefix, sample.queueAckPrefix, sample.eventPrefix].map((prefix) => prefix.slice(sample.prefix.length).replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^\\d+!(?:${parts.join('|')})`);
})();

function isEventState(key: Buffer): boolean {
  // Keys are ASCII up to the part that names the record; 40 bytes hold every realm id and prefix.
  return EVENT_STATE.test(key.toString('latin1', 0, 40));
}

/**
 * Refuses a target that already holds something: a backup never merges into (or replaces)
 * other data. An empty directory is accepted (and replaced by the finished backup).
 */
export function checkBackupTarget(dir: string): string {
  const target = resolve(dir);
  if (existsSync(target) && readdirSync(target).length > 0) throw new BackupTargetError(`${target} exists and is not empty`);
  return target;
}

/**
 * Writes a backup of `db` to `dir`. The snapshot is taken before the first await, so it holds
 * everything acknowledged before this call and nothing acknowledged after. The copy is written
 * beside the target and renamed into place once complete and synced, so `dir` either holds a
 * whole backup or does not exist (a failed or interrupted backup leaves nothing behind).
 * Each organization's files go to its own uploads directory in the backup, as in a data directory.
 * With `scope`, only that organization: its keys, its index entries, the server's counters and
 * the files its records name.
 */
export async function writeBackup(db: Database, dir: string, uploads: UploadStores, scope?: BackupScope): Promise<BackupResult> {
  const target = checkBackupTarget(dir);
  // Where the backup goes must exist and take a directory, or the backup fails now, naming the path.
  const parent = makeDirectory(dirname(target));
  const partial = join(parent, `.${basename(target)}.partial-${process.pid}-${Date.now()}`);
  try {
    mkdirSync(partial); // not LevelDB's recursive mkdir, which never returns on some targets (see directories.ts)
  } catch (error) {
    throw new DirectoryError(partial, `cannot be written: ${reasonOf(error)}`);
  }
  // Taken together, before any await: the files the snapshot names stay until they are copied.
  const reader = db.snapshot(scope && organizationRange(scope.realmId));
  const releaseFiles = uploads.hold();
  const started = performance.now();
  try {
    const copied = await copyEntries(db, reader, partial, scope);
    const files = { files: 0, bytes: 0 };
    const missingFiles: string[] = [];
    for (const { id, subdomain, wanted, named } of copied.organizations) {
      const store = uploads.of(id, subdomain);
      const root = uploadsDir(partial, id, subdomain);
      const some = await copyStoredFiles(store, root, wanted);
      // What the records name and this node never held (a cluster node): from the replica.
      const fetched = await copyMissingFiles(store, root, named, id);
      files.files += some.files + fetched.files;
      files.bytes += some.bytes + fetched.bytes;
      missingFiles.push(...fetched.missing.map((sha) => `${id}/${sha}`));
    }
    // The organizations' directories sit below the uploads directory: their names must be durable too.
    for (const below of [join(partial, UPLOADS_DIR, 'organizations'), join(partial, UPLOADS_DIR)]) if (existsSync(below)) syncDirectory(below);
    checkBackupTarget(target); // nobody filled it meanwhile
    // rename(2) replaces an empty directory; the parent is synced so that the new name survives a crash.
    renameSync(partial, target);
    syncDirectory(dirname(target));
    const { entries, omitted, bytes } = copied;
    return { dir: target, entries, omitted, bytes, files: files.files, fileBytes: files.bytes, missingFiles, seconds: (performance.now() - started) / 1000 };
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    throw error;
  } finally {
    releaseFiles();
    await reader.close();
  }
}

interface CopiedEntries {
  entries: number;
  omitted: number;
  bytes: number;
  /** The organizations whose files go with the entries (which of their files, when not all; the hashes their records name). */
  organizations: { id: number; subdomain: string; wanted?: (name: string) => boolean; named: ReadonlySet<string> }[];
}

/** Copies the snapshot's entries (but the event queues) into a new LevelDB at `partial`, and with `scope` the organization's server entries. */
async function copyEntries(db: Database, reader: SnapshotReader, partial: string, scope: BackupScope | undefined): Promise<CopiedEntries> {
  const named = scope && fileHashCollector(scope.realmId);
  const index = indexCollector();
  const all = scope ? undefined : allFileHashesCollector();
  let copy: Level<Buffer, Buffer> | undefined;
  let entries = 0;
  let omitted = 0;
  let bytes = 0;
  try {
    copy = new Level<Buffer, Buffer>(partial, { keyEncoding: 'buffer', valueEncoding: 'buffer', errorIfExists: true });
    await copy.open();
    // Raw entries go straight to classic-level's native batch, as Database.flush does: the public
    // batch() clones and validates every op, which made it two thirds of a backup's CPU.
    const native = copy as unknown as { _batch(ops: RawPut[], options: { sync: boolean }): Promise<void> };
    // Pages are written one behind the reading, so that the last one can be the synced write
    // that makes the whole copy durable (LevelDB's synced write syncs the log holding the others).
    let held: [Buffer, Buffer][] | undefined;
    for (let ahead = readAhead(reader); ; ) {
      const read = await ahead;
      if (read.length === 0) break;
      ahead = readAhead(reader); // the next page is read while this one is written
      const page = read.filter(([key]) => !isEventState(key));
      if (named) for (const [key, value] of page) named.take(key, value);
      else for (const [key, value] of page) (index.take(key, value), all!.take(key, value));
      omitted += read.length - page.length;
      if (page.length === 0) continue;
      if (held) await native._batch(puts(held), { sync: false });
      held = page;
      entries += page.length;
      for (const [key, value] of page) bytes += key.byteLength + value.byteLength;
    }
    // An organization's entries in the server's index, read after its snapshot: the counters
    // are then at least what its ids reached.
    if (scope) {
      const server = serverEntries(db, scope);
      entries += server.length;
      held = [...(held ?? []), ...server];
    }
    if (held) await native._batch(puts(held), { sync: true });
    await copy.close();
  } catch (error) {
    await copy?.close().catch(() => undefined);
    throw error;
  }
  const organizations = scope && named
    ? [{ id: scope.realmId, subdomain: scope.subdomain, wanted: storedFileOf(named.hashes), named: named.hashes }]
    : index.organizations.map((organization) => ({ ...organization, named: all!.hashesOf(organization.id) }));
  return { entries, omitted, bytes, organizations };
}

function serverEntries(db: Database, scope: BackupScope): [Buffer, Buffer][] {
  const entries: [Buffer, Buffer][] = [];
  for (const key of [...indexKeysOf(scope.realmId, scope.subdomain), ...SERVER_COUNTER_KEYS]) {
    const value = db.get(key);
    if (value !== undefined) entries.push([Buffer.from(key), encode(value)]);
  }
  return entries;
}

function readAhead(reader: SnapshotReader): Promise<[Buffer, Buffer][]> {
  const page = reader.next(PAGE);
  page.catch(() => undefined); // awaited later, or abandoned when a write fails: never an unhandled rejection
  return page;
}

type RawPut = { type: 'put'; key: Buffer; value: Buffer };

function puts(page: [Buffer, Buffer][]): RawPut[] {
  return page.map(([key, value]) => ({ type: 'put', key, value }));
}

function syncDirectory(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
