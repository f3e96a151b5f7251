/** Cluster mode's snapshots on the store side: one organization's keys written and restored through frames, others untouched, the applied sequence last. */
import { test } from 'tap';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { encode } from '../../src/store/codec.js';
import { Database } from '../../src/store/database.js';
import { realmKeys, serverKeys } from '../../src/store/keys.js';
import { restoreSnapshot, snapshotOf } from '../../src/store/organization-snapshot.js';
import { appliedKey, appliedSequence, type EncodedOp } from '../../src/store/replicated-log.js';
import { tempDataDir } from '../helpers/temp.js';

const put = (key: string, value: unknown): EncodedOp => ({ type: 'put', key, value: encode(value) });

/** Re-cuts a byte stream at odd places, as an object store's chunks fall. */
async function* rechunked(frames: AsyncIterable<Uint8Array>, size: number): AsyncGenerator<Uint8Array> {
  const all = [];
  for await (const frame of frames) all.push(frame);
  const bytes = Buffer.concat(all);
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

test('a snapshot of one organization restores over a stale copy, leaving the others alone', async (t) => {
  const dir = tempDataDir();
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const owner = await Database.open(join(dir, 'owner'), { sync: false });
  const follower = await Database.open(join(dir, 'follower'), { sync: false });
  t.teardown(async () => {
    await owner.close();
    await follower.close();
  });
  const five = realmKeys(5).prefix;
  const six = realmKeys(6).prefix;
  const owned = [put(appliedKey(5), 1200), put(serverKeys.realmIndex(5), { subdomain: 'five' }), put(serverKeys.subdomain('five'), 5)];
  for (let i = 0; i < 1500; i++) owned.push(put(`${five}msg!${String(i).padStart(12, '0')}`, { id: i, content: `m${i}` }));
  await owner.applyReplicated(owned);
  // The follower's stale copy: a key the owner has since deleted, an old value, an older sequence; and another organization.
  await follower.applyReplicated([put(appliedKey(5), 40), put(`${five}gone`, 1), put(`${five}msg!000000000003`, { id: 3, content: 'old' }), put(`${six}kept`, 'six')]);

  const snapshot = snapshotOf(owner, 5, 'five');
  const restored = await restoreSnapshot(follower, 5, rechunked(snapshot.frames, 1000));
  t.equal(snapshot.sequence(), 1200, 'the snapshot says which sequence it holds');
  t.equal(restored, 1200, 'the follower now holds the stream up to it');
  t.equal(appliedSequence((key) => follower.get(key), 5), 1200);
  t.equal(follower.get(`${five}gone`), undefined, 'what the organization no longer has is gone');
  t.same(follower.get(`${five}msg!000000000003`), { id: 3, content: 'm3' }, 'values are the snapshot’s');
  t.same(follower.get(`${five}msg!000000001499`), { id: 1499, content: 'm1499' }, 'every page arrived');
  t.same(follower.get(serverKeys.subdomain('five')), 5, 'with its server index entries');
  t.equal(follower.get(`${six}kept`), 'six', 'another organization is untouched');

  const cut = async function* (): AsyncGenerator<Uint8Array> {
    for await (const chunk of rechunked(snapshotOf(owner, 5, 'five').frames, 1000)) {
      yield chunk;
      throw new Error('connection lost');
    }
  };
  await t.rejects(restoreSnapshot(follower, 5, cut()), /connection lost/);
  t.equal(appliedSequence((key) => follower.get(key), 5), 0, 'a restore cut short leaves no applied sequence: it is restored again');
});
