/** Opening the LevelDB handle, naming the directory in the errors people meet (a data directory locked by another process). */
import { resolve } from 'node:path';
import { Level } from 'level';
import { DirectoryError, makeDirectory } from './directories.js';

export async function openLevel(path: string): Promise<Level<string, Uint8Array>> {
  const db = new Level<string, Uint8Array>(makeDirectory(path), { keyEncoding: 'utf8', valueEncoding: 'view' });
  try {
    await db.open();
  } catch (error) {
    // LevelDB's own message is "Database failed to open": the path and the cause are what helps.
    throw new DirectoryError(resolve(path), openFailure(error));
  }
  return db;
}

/** Why LevelDB did not open: locked by another process, or its own cause. */
function openFailure(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code === 'LEVEL_LOCKED') return 'the database is locked by another process (is a Parley server running on it?)';
  return cause?.message ?? (error as Error).message;
}
