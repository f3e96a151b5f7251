/**
 * Which snapshot of each organization is the current one (docs/cluster.md, "Snapshots and
 * trimming"): a KV bucket `parley_snapshot_index` (3 replicas, no expiry) holds, per organization,
 * the name of its newest snapshot object, the stream sequence it covers and the lease revision of
 * the owner that took it. A snapshot becomes current only by a compare-and-set on that entry, and
 * only when it covers a later sequence than the current one: a stale owner's snapshot, finished
 * after a newer one, is refused (fencing), so the stream is never left trimmed past the snapshot.
 */
import { StorageType } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';

export const SNAPSHOT_INDEX_BUCKET = 'parley_snapshot_index';

/** The current snapshot of an organization. */
export interface SnapshotRecord {
  /** Its object's name in the snapshots bucket. */
  object: string;
  /**
   * The object of the snapshot it replaced, kept until the next one replaces it: a node that read
   * the index just before can still read the object whole.
   */
  previous?: string;
  /** The stream sequence it holds everything up to. */
  sequence: number;
  /** The revision of the lease its owner held when it took it (for the record). */
  leaseRevision: number;
  node: string;
}

export function openSnapshotIndex(nc: NatsConnection): Promise<KV> {
  return new Kvm(nc).create(SNAPSHOT_INDEX_BUCKET, { replicas: 3, history: 1, storage: StorageType.File });
}

function keyOf(realm: number): string {
  return `org_${realm}`;
}

/** The organization's current snapshot (undefined: none yet). */
export async function currentSnapshot(index: KV, realm: number): Promise<SnapshotRecord | undefined> {
  const entry = await index.get(keyOf(realm));
  return entry?.operation === 'PUT' ? (JSON.parse(entry.string()) as SnapshotRecord) : undefined;
}

/**
 * Makes `record` the organization's current snapshot if it covers a later sequence than the
 * current one; returns the one it replaced (null: none), or false when it was refused. A
 * concurrent change is read again and compared again.
 */
export async function claimSnapshot(index: KV, realm: number, record: SnapshotRecord): Promise<SnapshotRecord | null | false> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const entry = await index.get(keyOf(realm));
    const current = entry?.operation === 'PUT' ? (JSON.parse(entry.string()) as SnapshotRecord) : null;
    if (current && current.sequence >= record.sequence) return false;
    const value = JSON.stringify({ ...record, previous: current?.object });
    try {
      // `update` names the revision read (a delete marker's included), `create` needs none there.
      if (entry) await index.update(keyOf(realm), value, entry.revision);
      else await index.create(keyOf(realm), value);
      return current;
    } catch {
      // Changed since it was read: compare with what is there now.
    }
  }
  throw new Error(`the snapshot index entry of organization ${realm} kept changing`);
}
