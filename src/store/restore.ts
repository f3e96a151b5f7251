/**
 * Restore of organizations from a backup (backup.ts) into a data directory that may hold
 * others, with no server running on it: each organization restored replaces only its own keys
 * (all of them go first, so nothing of its later state survives) and gets back the files its
 * records name; the other organizations are not touched. The server's counters never go back.
 * Re-running a restore that was interrupted finishes it (each organization is replaced whole).
 */
import { constants } from 'node:fs';
import { copyFile, mkdir, open as openFile, rename, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Level } from 'level';
import { decode, encode } from './codec.js';
import { DirectoryError, reasonOf } from './directories.js';
import { prefixEnd } from './keys.js';
import { fileHashCollector, indexKeysOf, INDEX_PREFIX, organizationRange, SERVER_COUNTER_KEYS, storedFileOf } from './organization-scope.js';
import { FileStore, uploadsDir } from './files.js';
import { removeSearchIndex, searchIndexDir } from './search-index.js';

type Raw = Level<Buffer, Buffer>;
const PAGE = 4000;

/** The backup cannot be restored here as asked; nothing was changed. */
export class RestoreRefused extends Error {}

export interface RestoredOrganization {
  id: number;
  subdomain: string;
  entries: number;
  files: number;
}

interface IndexEntry {
  id: number;
  subdomain: string;
}

const open = async (path: string, options: { createIfMissing: boolean }): Promise<Raw> => {
  const db = new Level<Buffer, Buffer>(path, { keyEncoding: 'buffer', valueEncoding: 'buffer', ...options });
  await db.open();
  return db;
};

async function indexOf(db: Raw): Promise<IndexEntry[]> {
  const entries: IndexEntry[] = [];
  for await (const [, value] of db.iterator({ gte: Buffer.from(INDEX_PREFIX), lt: Buffer.from(prefixEnd(INDEX_PREFIX)) })) {
    const entry = decode<{ id: number; subdomain?: string }>(value);
    entries.push({ id: entry.id, subdomain: entry.subdomain ?? '' });
  }
  return entries;
}

/**
 * Restores the organization of `backupDir` at `subdomain` (or, undefined, every organization it
 * holds) into the data directory `dataDir`. Refuses before changing anything when the backup
 * does not hold it, or when its id or subdomain belongs to another organization there.
 */
export async function restoreOrganizations(backupDir: string, dataDir: string, subdomain?: string): Promise<RestoredOrganization[]> {
  const backup = await open(backupDir, { createIfMissing: false }).catch((error: unknown) => {
    throw new RestoreRefused(`${backupDir} is not a backup: ${reasonOf(error)}`);
  });
  try {
    const held = await indexOf(backup);
    const chosen = subdomain === undefined ? held : held.filter((entry) => entry.subdomain === subdomain);
    if (chosen.length === 0) throw new RestoreRefused(subdomain === undefined ? `${backupDir} holds no organization` : `${backupDir} holds no organization '${subdomain}'`);
    const target = await open(dataDir, { createIfMissing: true }).catch((error: unknown) => {
      throw new RestoreRefused(`cannot open the data directory ${dataDir} (a server running on it must be stopped first): ${reasonOf(error)}`);
    });
    try {
      const present = await indexOf(target);
      for (const entry of chosen) {
        const clash = present.find((other) => (other.id === entry.id) !== (other.subdomain === entry.subdomain));
        if (clash) throw new RestoreRefused(`organization ${entry.id} '${entry.subdomain}' cannot be restored here: organization ${clash.id} '${clash.subdomain}' holds its ${clash.id === entry.id ? 'id' : 'subdomain'}`);
      }
      const restored: RestoredOrganization[] = [];
      for (const entry of chosen) restored.push(await restoreOne(backup, target, entry, backupDir, dataDir));
      await raiseCounters(backup, target);
      return restored;
    } finally {
      await target.close();
    }
  } finally {
    await backup.close();
  }
}

async function restoreOne(backup: Raw, target: Raw, entry: IndexEntry, backupDir: string, dataDir: string): Promise<RestoredOrganization> {
  const range = organizationRange(entry.id);
  const bounds = { gte: Buffer.from(range.gte), lt: Buffer.from(range.lt) };
  // What the data directory holds of it goes first, index entries included.
  for (;;) {
    const keys = await target.keys({ ...bounds, limit: PAGE }).all();
    if (keys.length === 0) break;
    await target.batch(keys.map((key) => ({ type: 'del' as const, key })));
  }
  await target.batch(indexKeysOf(entry.id, entry.subdomain).map((key) => ({ type: 'del' as const, key: Buffer.from(key) })));
  const named = fileHashCollector(entry.id);
  let entries = 0;
  const iterator = backup.iterator(bounds);
  try {
    for (;;) {
      const page = await iterator.nextv(PAGE);
      if (page.length === 0) break;
      for (const [key, value] of page) named.take(key, value);
      await target.batch(page.map(([key, value]) => ({ type: 'put' as const, key, value })));
      entries += page.length;
    }
  } finally {
    await iterator.close();
  }
  const index: { type: 'put'; key: Buffer; value: Buffer }[] = [];
  for (const key of indexKeysOf(entry.id, entry.subdomain)) {
    const value = await backup.get(Buffer.from(key));
    if (value !== undefined) index.push({ type: 'put', key: Buffer.from(key), value });
  }
  // Synced last: LevelDB's synced write makes the unsynced ones before it durable too.
  await target.batch(index, { sync: true });
  entries += index.length;
  const files = await copyFiles(uploadsDir(backupDir, entry.id, entry.subdomain), uploadsDir(dataDir, entry.id, entry.subdomain), storedFileOf(named.hashes));
  // The search index is made anew from the restored messages at the next start.
  removeSearchIndex(searchIndexDir(dataDir), entry.id);
  return { id: entry.id, subdomain: entry.subdomain, entries, files };
}

/** The server's counters become the larger of the two: no id is ever handed out twice. */
async function raiseCounters(backup: Raw, target: Raw): Promise<void> {
  const puts: { type: 'put'; key: Buffer; value: Buffer }[] = [];
  for (const name of SERVER_COUNTER_KEYS) {
    const key = Buffer.from(name);
    const [theirs, ours] = await Promise.all([backup.get(key), target.get(key)]);
    const value = Math.max(theirs ? decode<number>(theirs) : 0, ours ? decode<number>(ours) : 0);
    if (value > 0) puts.push({ type: 'put', key, value: encode(value) });
  }
  await target.batch(puts, { sync: true });
}

const exists = (path: string) => stat(path).then(() => true, () => false);

/** Copies the stored files that `wanted` names from one uploads directory to another (files already there are the same bytes). */
async function copyFiles(fromDir: string, to: string, wanted: (name: string) => boolean): Promise<number> {
  const from = new FileStore(fromDir);
  const tmp = join(to, 'tmp');
  await mkdir(tmp, { recursive: true });
  let copied = 0;
  for (const name of (await from.storedFiles()).filter(wanted)) {
    const path = join(to, name);
    if (await exists(path)) continue;
    // Through tmp/ (emptied at start) and renamed once synced, as FileStore writes: a crash
    // leaves the whole file or none under its name, so a second run copies what is missing.
    const partial = join(tmp, `restore-${process.pid}-${copied}`);
    try {
      await mkdir(dirname(path), { recursive: true });
      await copyFile(join(from.root, name), partial, constants.COPYFILE_FICLONE);
      const handle = await openFile(partial, 'r');
      await handle.sync().finally(() => handle.close());
      await rename(partial, path);
      copied++;
    } catch (error) {
      throw new DirectoryError(path, `cannot be written: ${reasonOf(error)}`);
    }
  }
  return copied;
}
