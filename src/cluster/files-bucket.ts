/**
 * Uploaded bytes replicated in JetStream (docs/cluster.md): one object store bucket,
 * `parley_files` (3 replicas, file storage), an object per organization and SHA-256
 * (`<realmId>/<sha256>`). The owner puts a file's bytes there before the record naming it is
 * written; any node that serves the organization later fetches what it lacks on first read.
 */
import { Objm, StorageType, type ObjectStore } from '@nats-io/obj';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from 'pino';
import type { FileReplica } from '../store/file-replica.js';
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
    };
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
