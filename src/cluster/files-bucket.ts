/**
 * Uploaded bytes replicated in JetStream (docs/cluster.md): one object store bucket,
 * `parley_files` (3 replicas, file storage), an object per organization and SHA-256
 * (`<realmId>/<sha256>`). The owner puts a file's bytes there before the record naming it is
 * written; any node that serves the organization later fetches what it lacks on first read.
 */
import { Objm, StorageType, type ObjectStore } from '@nats-io/obj';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from 'pino';
import type { FileReplica, ReplicaObject } from '../store/file-replica.js';
import { retry } from './streams.js';

export const FILES_BUCKET = 'parley_files';

/** How long one chunk's publish may wait for JetStream (a stream leader election takes seconds). */
const CHUNK_TIMEOUT_MS = 15_000;

export function openFilesBucket(nc: NatsConnection): Promise<ObjectStore> {
  return retry(() => new Objm(nc).create(FILES_BUCKET, { replicas: 3, storage: StorageType.File, description: 'Parley: uploaded files by organization and SHA-256' }));
}

export function objectNameOf(realm: number, sha: string): string {
  return `${realm}/${sha}`;
}

/** How long listing the bucket may take before a sweep gives up (it is tried again at the next). */
const LIST_TIMEOUT_MS = 60_000;

/** What the bucket needs of the node: whether it serves an organization now, and how to sweep. */
export interface FilesBucketParts {
  /** Asked of JetStream (the lease), not of the node's memory: a node resumed after a pause must not trust the latter. */
  serves(realm: number): Promise<boolean>;
  sweep: { everyMs: number; graceMs: number };
}

/**
 * The replicas of every organization on one bucket. Puts and deletes of one object run in the
 * order they were asked for (a delete of a file followed by an upload of the same bytes must not
 * land the other way round).
 */
export class FilesBucket {
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly bucket: ObjectStore,
    private readonly logger: Logger,
    private readonly parts: FilesBucketParts,
  ) {}

  of(realm: number): FileReplica {
    return {
      put: (sha, data) => this.inOrder(objectNameOf(realm, sha), (name) => this.put(name, data)),
      get: (sha) => this.get(objectNameOf(realm, sha)),
      delete: (sha) => {
        const name = objectNameOf(realm, sha);
        void this.inOrder(name, (n) => this.bucket.delete(n)).catch((error: unknown) => {
          // The object stays behind (unreferenced bytes, never served): a later upload of the same bytes reuses it.
          this.logger.warn({ err: error, object: name }, 'cluster: an unreferenced file could not be deleted from the files bucket');
        });
      },
      list: () => this.list(realm),
      deleteUnnamed: (shas, unnamed) => this.deleteUnnamed(realm, shas, unnamed),
      sweep: this.parts.sweep,
    };
  }

  /** The organization's objects (the bucket's list holds every organization's: names say whose). */
  private async list(realm: number): Promise<ReplicaObject[]> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('listing the files bucket timed out')), LIST_TIMEOUT_MS)));
    try {
      const infos = await Promise.race([this.bucket.list(), timeout]);
      const prefix = objectNameOf(realm, '');
      return infos
        .filter((info) => !info.deleted && info.name.startsWith(prefix))
        .map((info) => ({ sha: info.name.slice(prefix.length), putAt: Date.parse(info.mtime) }))
        .filter((object) => /^[0-9a-f]{64}$/.test(object.sha) && Number.isFinite(object.putAt));
    } finally {
      clearTimeout(timer);
    }
  }

  /** Each deletion after a fresh look at the lease, in the object's order with puts (an upload of the same bytes lands after it). */
  private async deleteUnnamed(realm: number, shas: readonly string[], unnamed: (sha: string) => boolean): Promise<number> {
    let removed = 0;
    for (const sha of shas) {
      if (!(await this.parts.serves(realm))) break;
      const gone = await this.inOrder(objectNameOf(realm, sha), async (name) => {
        if (!unnamed(sha)) return false;
        return (await this.bucket.delete(name)).success;
      });
      if (gone) {
        removed++;
        this.logger.info({ object: objectNameOf(realm, sha) }, 'cluster: an object of the files bucket that no record names was swept');
      }
    }
    return removed;
  }

  /** Bytes already there (same size: the name is their hash) are not sent again. */
  private async put(name: string, data: Buffer): Promise<void> {
    const info = await this.bucket.info(name);
    if (info && !info.deleted && info.size === data.length) return;
    await this.bucket.putBlob({ name }, data, { timeout: CHUNK_TIMEOUT_MS });
  }

  private async get(name: string): Promise<Buffer | undefined> {
    const data = await this.bucket.getBlob(name);
    return data ? Buffer.from(data.buffer, data.byteOffset, data.byteLength) : undefined;
  }

  private inOrder<T>(name: string, run: (name: string) => Promise<T>): Promise<T> {
    const previous = this.queues.get(name) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => run(name));
    this.queues.set(name, next);
    const forget = () => {
      if (this.queues.get(name) === next) this.queues.delete(name);
    };
    next.then(forget, forget);
    return next;
  }
}
