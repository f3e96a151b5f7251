/**
 * The uploaded files of a backup: every stored file (bytes and thumbnails) copied into the
 * backup's `uploads/`, each synced, so that a server started on the backup serves every file its
 * records name. Files are content-addressed and never rewritten, so a copy of one is the file.
 */
import { constants } from 'node:fs';
import { copyFile, mkdir, open } from 'node:fs/promises';
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
