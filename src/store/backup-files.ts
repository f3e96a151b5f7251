/**
 * The uploaded files of a backup: every stored file (bytes and thumbnails) copied into the
 * backup's `uploads/`, each synced, so that a server started on the backup serves every file its
 * records name. Files are content-addressed and never rewritten, so a copy of one is the file.
 */
import { constants } from 'node:fs';
import { copyFile, mkdir, open, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { DirectoryError, reasonOf } from './directories.js';
import { FileStore, uploadsDir } from './files.js';

/** Name of the uploads directory inside a data directory (and so inside a backup). */
export const UPLOADS_DIR = 'uploads';

/** The file stores of a data directory's organizations (each has its own, see `uploadsDir`). */
export interface UploadStores {
  /** The organization's store: the running server's instance when it is loaded (its removals can be held). */
  of(realmId: number, subdomain: string): FileStore;
  /** Keeps every file of every store in use until the returned release (taken with a backup's snapshot). */
  hold(): () => void;
}

/** The stores of a data directory no server runs on: nothing removes files meanwhile. */
export function uploadStoresOnDisk(dataDir: string): UploadStores {
  return { of: (realmId, subdomain) => new FileStore(uploadsDir(dataDir, realmId, subdomain)), hold: () => () => undefined };
}

async function syncPath(path: string): Promise<void> {
  const handle = await open(path, constants.O_RDONLY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Copies the stored files (those `wanted`, or all) into the uploads directory `root`; resolves with how many and their bytes. */
export async function copyStoredFiles(files: FileStore, root: string, wanted?: (name: string) => boolean): Promise<{ files: number; bytes: number }> {
  const made = new Set<string>();
  let bytes = 0;
  const names = (await files.storedFiles()).filter((name) => !wanted || wanted(name));
  for (const name of names) {
    const to = join(root, name);
    const dir = dirname(to);
    try {
      if (!made.has(dir)) {
        await mkdir(dir, { recursive: true }); // below a directory this backup just created
        made.add(dir);
      }
      // A reflink where the file system has them (no bytes copied), a copy elsewhere.
      await copyFile(join(files.root, name), to, constants.COPYFILE_FICLONE);
      await syncPath(to);
    } catch (error) {
      throw new DirectoryError(to, `cannot be written: ${reasonOf(error)}`);
    }
    bytes += (await files.sizeOf(to)) ?? 0;
  }
  for (const dir of [...made].sort().reverse()) await syncPath(dir);
  if (made.size > 0) {
    for (const kind of new Set([...made].map((dir) => dirname(dir)))) await syncPath(kind);
    await syncPath(root);
  }
  return { files: names.length, bytes };
}

/** What a backup could not copy: files its records name that neither this node nor the replica holds (`<realmId>/<sha256>`). */
export class BackupReplicaError extends Error {}

/**
 * The files an organization's records name that its store on this node does not hold (a cluster
 * node holds only what it uploaded or fetched): fetched from the replica into the backup's uploads
 * directory `root`, each checked against its hash and synced. Resolves with how many were copied,
 * their bytes, and the hashes found nowhere (the replica lacks them too, or there is none);
 * rejects, naming them, when the replica cannot be reached, so that no backup silently lacks them.
 */
export async function copyMissingFiles(files: FileStore, root: string, named: ReadonlySet<string>, realmId: number): Promise<{ files: number; bytes: number; missing: string[] }> {
  const stored = new Set(await files.storedHashes());
  const absent = [...named].filter((sha) => !stored.has(sha)).sort();
  const missing: string[] = [];
  let copied = 0;
  let bytes = 0;
  for (const [index, sha] of absent.entries()) {
    let data: Buffer | undefined;
    try {
      data = await files.fetchFromReplica(sha);
    } catch (error) {
      const names = absent.slice(index).map((hash) => `${realmId}/${hash}`);
      throw new BackupReplicaError(
        `${names.length} uploaded file(s) of organization ${realmId} that this node never held cannot be fetched, the files bucket cannot be reached ` +
          `(${(error as Error).message}): ${names.slice(0, 5).join(', ')}${names.length > 5 ? ', …' : ''}; nothing was written`,
      );
    }
    if (!data) {
      missing.push(sha);
      continue;
    }
    const to = join(root, 'blobs', sha.slice(0, 2), sha);
    try {
      await mkdir(dirname(to), { recursive: true });
      await writeFile(to, data);
      await syncPath(to);
      await syncPath(dirname(to));
    } catch (error) {
      throw new DirectoryError(to, `cannot be written: ${reasonOf(error)}`);
    }
    copied++;
    bytes += data.length;
  }
  if (copied > 0) for (const dir of [join(root, 'blobs'), root]) await syncPath(dir);
  return { files: copied, bytes, missing };
}
