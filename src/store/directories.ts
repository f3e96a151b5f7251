/**
 * Creating the directories the store writes to, one level at a time, with errors that name the
 * path. Node 20's recursive mkdir never returns on some targets (`/proc/nope` spins forever, in
 * the thread pool when asynchronous), and LevelDB's open calls it: so every directory is made
 * here first, and LevelDB only ever opens one that exists.
 */
import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** A directory that cannot be created or used; the message names the path and why. */
export class DirectoryError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
    this.name = 'DirectoryError';
  }
}

const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  ENOTDIR: 'a part of the path is a file, not a directory',
  EEXIST: 'it exists and is not a directory',
  ENOENT: 'the parent cannot hold directories',
};

export function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return (code && REASONS[code]) ?? (error as Error).message;
}

/** Makes `path` and any missing parents (like `mkdir -p`), or throws a DirectoryError naming the one that failed. */
export function makeDirectory(path: string): string {
  const target = resolve(path);
  const missing: string[] = [];
  for (let dir = target; ; dir = dirname(dir)) {
    let isDirectory: boolean | undefined;
    try {
      isDirectory = statSync(dir).isDirectory();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new DirectoryError(dir, reasonOf(error));
    }
    if (isDirectory === false) throw new DirectoryError(dir, 'it is a file, not a directory');
    if (isDirectory) break;
    missing.unshift(dir);
    if (dirname(dir) === dir) break;
  }
  for (const dir of missing) {
    try {
      mkdirSync(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && statSync(dir).isDirectory()) continue;
      throw new DirectoryError(dir, reasonOf(error));
    }
  }
  return target;
}
