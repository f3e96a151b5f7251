/**
 * Snapshots of organizations in JetStream's object store, and trimming their streams
 * (docs/cluster.md): the owner, every `every` entries it appended, writes a snapshot of the
 * organization's store (bucket `parley_snapshots`, 3 replicas, file storage; an object per
 * snapshot), makes it current in the snapshot index only if it covers a later sequence than the
 * current one (snapshot-index.ts: a stale owner's is refused and deleted), deletes the one before
 * the previous, and then purges the stream below the sequence it covers. A node whose store is behind the stream's first entry (a new node, or one that was
 * down long) restores the snapshot, then follows the stream's tail.
 */
import type { JetStreamManager } from '@nats-io/jetstream';
import type { KV } from '@nats-io/kv';
import { Objm, StorageType, type ObjectStore } from '@nats-io/obj';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from 'pino';
import type { Database } from '../store/database.js';
import { restoreSnapshot, snapshotOf } from '../store/organization-snapshot.js';
import { appliedSequence } from '../store/replicated-log.js';
import { claimSnapshot, currentSnapshot, openSnapshotIndex } from './snapshot-index.js';
import { retry, streamOf } from './streams.js';

export const SNAPSHOT_BUCKET = 'parley_snapshots';

/** A new snapshot object's name: unique (the node's name and a count), so that a snapshot never overwrites another. */
export function snapshotNameOf(realm: number, node: string, count: number): string {
  return `org_${realm}_${node}_${Date.now().toString(36)}_${count}`;
}

/** The snapshots' object bucket and their index. */
export async function openSnapshotBucket(nc: NatsConnection): Promise<{ bucket: ObjectStore; index: KV }> {
  const bucket = await retry(() => new Objm(nc).create(SNAPSHOT_BUCKET, { replicas: 3, storage: StorageType.File, description: 'Parley: snapshots of organizations' }));
  return { bucket, index: await retry(() => openSnapshotIndex(nc)) };
}

export class Snapshots {
  /** The sequence each organization's newest snapshot (or this node's first append as its owner) is at. */
  private readonly since = new Map<number, number>();
  private readonly taking = new Set<number>();
  private made = 0;

  constructor(
    private readonly node: string,
    private readonly bucket: ObjectStore,
    private readonly index: KV,
    private readonly jsm: JetStreamManager,
    private readonly db: Database,
    private readonly logger: Logger,
    /** Entries between snapshots (0: none taken). */
    private readonly every: number,
  ) {}

  /** After an append by the owner: a snapshot (in the background) when `every` entries were appended since the last. */
  appended(realm: number, subdomain: string, sequence: number, leaseRevision: number): void {
    if (this.every <= 0 || this.taking.has(realm)) return;
    const since = this.since.get(realm);
    if (since === undefined) return void this.since.set(realm, sequence);
    if (sequence - since < this.every) return;
    this.taking.add(realm);
    void this.take(realm, subdomain, leaseRevision)
      .catch((error: unknown) => this.logger.warn({ err: error, realm }, 'cluster: a snapshot failed; the stream keeps its entries'))
      .finally(() => this.taking.delete(realm));
  }

  /** Writes the organization's snapshot (what this node's disk holds); once it is current, trims the stream below it. */
  async take(realm: number, subdomain: string, leaseRevision: number): Promise<number> {
    const snapshot = snapshotOf(this.db, realm, subdomain);
    const frames = snapshot.frames;
    const data = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await frames.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel() {
        await frames.return(undefined);
      },
    });
    const object = snapshotNameOf(realm, this.node, this.made++);
    await this.bucket.put({ name: object }, data, { timeout: 15_000 });
    const sequence = snapshot.sequence();
    this.since.set(realm, sequence);
    const replaced = await claimSnapshot(this.index, realm, { object, sequence, leaseRevision, node: this.node });
    if (replaced === false) {
      // A newer snapshot is current (this node lost its lease meanwhile): this one goes, nothing is trimmed.
      await this.bucket.delete(object).catch(() => undefined);
      this.logger.warn({ realm, sequence }, 'cluster: snapshot refused, a newer one is current');
      return sequence;
    }
    // The snapshot before the one replaced goes (the one replaced stays for a reader that just found it).
    if (replaced?.previous) await this.bucket.delete(replaced.previous).catch(() => undefined);
    // Only entries the stored snapshot holds go: a purge keeps every entry from `seq` on.
    if (sequence > 0) await this.jsm.streams.purge(streamOf(realm), { seq: sequence + 1 });
    this.logger.info({ realm, sequence }, 'cluster: snapshot stored, stream trimmed below it');
    return sequence;
  }

  /** Before following or taking over: restores the snapshot when the stream no longer holds the entry after the store's. */
  async restoreIfBehind(realm: number): Promise<void> {
    const first = (await this.jsm.streams.info(streamOf(realm))).state.first_seq;
    const applied = appliedSequence((key) => this.db.get(key), realm);
    if (first <= applied + 1) return;
    const current = await currentSnapshot(this.index, realm);
    const found = current && (await this.bucket.get(current.object));
    if (!found) throw new Error(`the stream of organization ${realm} starts at ${first} and there is no snapshot`);
    const restored = await restoreSnapshot(this.db, realm, found.data as unknown as AsyncIterable<Uint8Array>);
    const failed = await found.error;
    if (failed) throw failed;
    if (restored + 1 < first) throw new Error(`the snapshot of organization ${realm} holds up to ${restored}, the stream starts at ${first}`);
    this.since.delete(realm);
    this.logger.warn({ realm, sequence: restored, first }, 'cluster: organization restored from its snapshot');
  }
}
