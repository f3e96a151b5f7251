/**
 * Uploaded bytes on disk, content-addressed under `<data dir>/uploads`: `blobs/ab/<sha256>` holds
 * a file's bytes and `thumbnails/ab/<sha256>-<format>` its thumbnails. A file is written to
 * `tmp/`, fsynced, renamed into place and its directory fsynced before `put` resolves, so a
 * crash leaves either the whole file or nothing under `blobs/`; `open` empties `tmp/`. In cluster
 * mode a replica (file-replica.ts) also holds each file's bytes before `put` resolves, and a
 * file missing here is fetched from it when first read (and kept); thumbnails are made again
 * from the bytes when missing, so they are not replicated.
 */
import { createHash, randomBytes } from 'node:crypto';
import { constants, readdirSync, rmSync } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { ByteRange } from '../domain/uploads.js';
import { ApiError } from '../domain/errors.js';
import type { FileReplica } from './file-replica.js';
import { storeUnavailable } from './store-fault.js';

/**
 * An organization's upload directory: the root organization's is `<data dir>/uploads`, as it was
 * before a server held several; each other one has its own below it, so that one organization's
 * sweep (files no record of its own names) never sees another's files.
 */
export function uploadsDir(dataDir: string, realmId: number, subdomain: string): string {
  const root = join(dataDir, 'uploads');
  return subdomain === '' ? root : join(root, 'organizations', String(realmId));
}

/** A file that must be fetched from the replica while it cannot be reached: 503, as the store's own outages. */
function replicaUnreachable(): ApiError {
  return new ApiError('SERVER_NOT_READY', 'This file cannot be read right now: its replicas cannot be reached. Try again later.', 503, {}, { 'Retry-After': '5' });
}

export const sha256Of = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

async function fsyncDirectory(path: string): Promise<void> {
  const handle = await open(path, constants.O_RDONLY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** A stored file that an upload under way is about to name: it is not removed meanwhile. */
export interface HeldFile {
  sha: string;
  release(): void;
}

export class FileStore {
  /** Hashes held by uploads under way, with their counts. */
  private readonly held = new Map<string, number>();
  /** Writes under way by final path: a second write of the same bytes waits for the first to be durable. */
  private readonly writing = new Map<string, Promise<void>>();
  /** Backups under way: while any runs, removals wait (see holdRemovals). */
  private holders = 0;
  private readonly waitingRemovals = new Map<string, (sha: string) => boolean>();
  private readonly tmp: string;
  private readonly blobs: string;
  private readonly thumbnails: string;
  /** Fetches from the replica under way, by hash: concurrent readers of a missing file share one. */
  private readonly fetching = new Map<string, Promise<boolean>>();

  constructor(
    readonly root: string,
    private readonly replica?: FileReplica,
  ) {
    this.tmp = join(root, 'tmp');
    this.blobs = join(root, 'blobs');
    this.thumbnails = join(root, 'thumbnails');
  }

  /** Creates the directories and removes what an interrupted write left in `tmp/`. */
  async open(): Promise<void> {
    await rm(this.tmp, { recursive: true, force: true });
    for (const dir of [this.root, this.tmp, this.blobs, this.thumbnails]) await mkdir(dir, { recursive: true });
  }

  blobPath(sha: string): string {
    return join(this.blobs, sha.slice(0, 2), sha);
  }

  thumbnailPath(sha: string, format: string): string {
    return join(this.thumbnails, sha.slice(0, 2), `${sha}-${format}`);
  }

  /**
   * Stores `data` durably under its SHA-256; bytes already stored are not written again. The file
   * is held (never removed) until `release`, so that the record naming it can be written first.
   */
  async put(data: Buffer): Promise<HeldFile> {
    const sha = sha256Of(data);
    this.held.set(sha, (this.held.get(sha) ?? 0) + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const count = this.held.get(sha)! - 1;
      if (count === 0) this.held.delete(sha);
      else this.held.set(sha, count);
    };
    try {
      await this.writeDurably(this.blobPath(sha), data);
    } catch (error) {
      release();
      throw error;
    }
    if (this.replica) await this.replicate(sha, data, release);
    return { sha, release };
  }

  /** Cluster mode: the bytes are in the replica before the record naming them can be written; refused (503) when they cannot be. */
  private async replicate(sha: string, data: Buffer, release: () => void): Promise<void> {
    try {
      await this.replica!.put(sha, data);
    } catch (error) {
      release();
      const reason = `the file could not be replicated: ${(error as Error).message}`;
      throw storeUnavailable({ cause: 'its file replicas cannot be reached', reason, since: Date.now(), attempts: 0 });
    }
  }

  async putThumbnail(sha: string, format: string, data: Buffer): Promise<void> {
    await this.writeDurably(this.thumbnailPath(sha, format), data);
  }

  async hasThumbnail(sha: string, format: string): Promise<boolean> {
    return exists(this.thumbnailPath(sha, format));
  }

  /** A stored file's size in bytes; undefined when it is not there. */
  async sizeOf(path: string): Promise<number | undefined> {
    try {
      return (await stat(path)).size;
    } catch {
      return undefined;
    }
  }

  /** The bytes of a stored file (or of one range of it); undefined when it is not there. */
  async read(path: string, range?: ByteRange): Promise<Buffer | undefined> {
    let handle;
    try {
      handle = await open(path, 'r');
    } catch {
      if (!this.replica || !(await this.fetch(path))) return undefined;
      handle = await open(path, 'r');
    }
    try {
      if (!range) return await handle.readFile();
      const length = range.end - range.start + 1;
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, range.start);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  /** Cluster mode: brings a file's bytes missing here from the replica and keeps them; false when it has none. */
  private fetch(path: string): Promise<boolean> {
    const sha = this.blobShaOf(path);
    if (sha === undefined) return Promise.resolve(false);
    const under = this.fetching.get(sha);
    if (under) return under;
    const fetching = (async () => {
      const data = await this.fetchFromReplica(sha);
      if (!data) return false;
      await this.writeDurably(path, data);
      return true;
    })().finally(() => this.fetching.delete(sha));
    this.fetching.set(sha, fetching);
    return fetching;
  }

  /**
   * A file's bytes from the replica, not kept here (a backup of bytes this node never held):
   * undefined when the replica has none or not these (content-addressed: bytes that are not what
   * the hash names are not taken); rejects with 503 when the replica cannot be reached.
   */
  async fetchFromReplica(sha: string): Promise<Buffer | undefined> {
    if (!this.replica) return undefined;
    const data = await this.replica.get(sha).catch(() => Promise.reject(replicaUnreachable()));
    return data && sha256Of(data) === sha ? data : undefined;
  }

  /** The hash a path under `blobs/` names (`ab/<sha256>`), or undefined for any other path. */
  private blobShaOf(path: string): string | undefined {
    const match = /^([0-9a-f]{2})\/([0-9a-f]{64})$/.exec(relative(this.blobs, path));
    return match && match[2]!.startsWith(match[1]!) ? match[2] : undefined;
  }

  /**
   * Removes a file's bytes and thumbnails unless an upload holds it or `inUse` says a record
   * names it. Synchronous, so that no upload can find the file between the check and the removal.
   */
  removeUnlessUsed(sha: string, inUse: (sha: string) => boolean): boolean {
    if (this.held.has(sha) || inUse(sha)) return false;
    if (this.holders > 0) {
      this.waitingRemovals.set(sha, inUse);
      return false;
    }
    rmSync(this.blobPath(sha), { force: true });
    this.replica?.delete(sha);
    const dir = join(this.thumbnails, sha.slice(0, 2));
    let names: string[] = [];
    try {
      names = readdirSync(dir);
    } catch {
      // no thumbnails
    }
    for (const name of names) if (name.startsWith(`${sha}-`)) rmSync(join(dir, name), { force: true });
    return true;
  }

  /**
   * Keeps every stored file until the returned release is called (a backup copies the files its
   * store snapshot names, so none may go meanwhile); removals asked for in between happen then.
   */
  holdRemovals(): () => void {
    this.holders++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.holders > 0) return;
      const waiting = [...this.waitingRemovals];
      this.waitingRemovals.clear();
      for (const [sha, inUse] of waiting) this.removeUnlessUsed(sha, inUse);
    };
  }

  /** The stored files (bytes and thumbnails), as paths relative to the root. */
  async storedFiles(): Promise<string[]> {
    const found: string[] = [];
    for (const kind of ['blobs', 'thumbnails']) {
      for (const dir of await readdir(join(this.root, kind)).catch(() => [] as string[])) {
        for (const name of await readdir(join(this.root, kind, dir)).catch(() => [] as string[])) found.push(join(kind, dir, name));
      }
    }
    return found;
  }

  /** Every stored file's hash (for the start-up sweep and the tests). */
  async storedHashes(): Promise<string[]> {
    const found: string[] = [];
    for (const dir of await readdir(this.blobs).catch(() => [] as string[])) {
      for (const name of await readdir(join(this.blobs, dir)).catch(() => [] as string[])) found.push(name);
    }
    return found;
  }

  /**
   * Removes stored files no attachment names: written before a crash that came between the
   * file and its record, or left by a deletion interrupted before its file went.
   */
  async sweep(inUse: ReadonlySet<string>): Promise<number> {
    let removed = 0;
    for (const sha of await this.storedHashes()) if (this.removeUnlessUsed(sha, (hash) => inUse.has(hash))) removed++;
    return removed;
  }

  /**
   * Cluster mode: deletes the replica's objects that no record names, older than the replica's
   * grace (an upload under way, put but not yet recorded, is younger and held): an owner that died
   * between a file's put and its record left them. `inUse` is asked again right before each goes.
   */
  async sweepReplica(inUse: (sha: string) => boolean, now = Date.now()): Promise<number> {
    if (!this.replica) return 0;
    const before = now - this.replica.sweep.graceMs;
    const unnamed = (sha: string) => !this.held.has(sha) && !inUse(sha);
    const orphans = (await this.replica.list()).filter((object) => object.putAt < before && unnamed(object.sha)).map((object) => object.sha);
    return orphans.length ? this.replica.deleteUnnamed(orphans, unnamed) : 0;
  }

  /**
   * Sweeps the replica now and then every `sweep.everyMs` (one sweep at a time); the returned
   * function stops it. Nothing without a replica.
   */
  sweepReplicaEvery(inUse: (sha: string) => boolean, report: (outcome: { removed: number } | { error: unknown }) => void): () => void {
    if (!this.replica) return () => undefined;
    let running = false;
    const run = () => {
      if (running) return;
      running = true;
      this.sweepReplica(inUse).then(
        (removed) => report({ removed }),
        (error: unknown) => report({ error }),
      ).finally(() => (running = false));
    };
    const timer = setInterval(run, this.replica.sweep.everyMs);
    timer.unref();
    run();
    return () => clearInterval(timer);
  }

  private writeDurably(path: string, data: Buffer): Promise<void> {
    const under = this.writing.get(path);
    if (under) return under;
    const write = this.writeOnce(path, data).finally(() => this.writing.delete(path));
    this.writing.set(path, write);
    return write;
  }

  private async writeOnce(path: string, data: Buffer): Promise<void> {
    if (await exists(path)) return;
    const dir = join(path, '..');
    // A new directory's own name must be durable too.
    if (await mkdir(dir, { recursive: true })) await fsyncDirectory(join(dir, '..'));
    const temporary = join(this.tmp, randomBytes(12).toString('hex'));
    const handle = await open(temporary, 'wx');
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
    // The rename is durable once the directory holding the new name is.
    await fsyncDirectory(dir);
  }
}
