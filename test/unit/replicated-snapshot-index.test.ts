/**
 * The snapshot index's compare-and-set (src/cluster/snapshot-index.ts) against a KV with
 * JetStream's revision rules (create only when absent, update only at the revision read): an older
 * snapshot is refused, a newer one replaces and keeps the replaced one as `previous`, and a claim
 * that loses a race to a newer snapshot reads again and is refused. (The real bucket is exercised
 * in test/cluster/failover.test.ts.)
 */
import { test } from 'tap';
import type { KV } from '@nats-io/kv';
import { claimSnapshot, currentSnapshot, type SnapshotRecord } from '../../src/cluster/snapshot-index.js';

/** A KV bucket in memory with JetStream's revision checks; `beforeUpdate` runs once, between a claim's read and its write. */
function memoryKv(beforeUpdate?: () => Promise<unknown>) {
  const entries = new Map<string, { value: string; revision: number }>();
  let revision = 0;
  let hook = beforeUpdate;
  const kv = {
    async get(key: string) {
      const entry = entries.get(key);
      return entry && { key, revision: entry.revision, operation: 'PUT', string: () => entry.value };
    },
    async create(key: string, value: string) {
      if (entries.has(key)) throw new Error('wrong last sequence');
      entries.set(key, { value, revision: ++revision });
      return revision;
    },
    async update(key: string, value: string, expected: number) {
      const run = hook;
      hook = undefined;
      await run?.();
      if (entries.get(key)?.revision !== expected) throw new Error('wrong last sequence');
      entries.set(key, { value, revision: ++revision });
      return revision;
    },
  };
  return kv as unknown as KV;
}

const record = (sequence: number, object = `o${sequence}`): SnapshotRecord => ({ object, sequence, leaseRevision: 1, node: 'n1' });

test('a newer snapshot replaces the current one; an older or equal one is refused', async (t) => {
  const kv = memoryKv();
  t.equal(await claimSnapshot(kv, 7, record(40)), null, 'the first one: nothing replaced');
  t.same(await claimSnapshot(kv, 7, record(80)), record(40), 'a newer one replaces it');
  t.equal((await currentSnapshot(kv, 7))?.previous, 'o40', 'and keeps it as the previous one');
  t.equal(await claimSnapshot(kv, 7, record(60)), false, 'an older one is refused');
  t.equal(await claimSnapshot(kv, 7, record(80, 'other')), false, 'one covering the same sequence too');
  t.equal((await currentSnapshot(kv, 7))?.object, 'o80', 'the current one stays');
  t.equal(await currentSnapshot(kv, 8), undefined, 'another organization has none');
});

test('a claim that loses a race to a newer snapshot reads again and is refused', async (t) => {
  const kv: KV = memoryKv(() => claimSnapshot(kv, 7, record(120)));
  await claimSnapshot(kv, 7, record(40));
  // Between this claim's read (40) and its update, another node makes 120 current.
  t.equal(await claimSnapshot(kv, 7, record(100)), false, 'the stale claim is refused after reading again');
  t.equal((await currentSnapshot(kv, 7))?.sequence, 120, 'the newer snapshot is current');
});
