/** Cluster mode's store side: a turn split per organization, and a follower's apply idempotent by sequence, counters never moved back. */
import { test } from 'tap';
import { decode, encode } from '../../src/store/codec.js';
import { appliedKey, opsToApply, packBatch, realmOfBatch, splitByRealm, unpackBatch, type EncodedOp } from '../../src/store/replicated-log.js';

const put = (key: string, value: unknown): EncodedOp => ({ type: 'put', key, value: encode(value) });

test('a turn is split by organization; shared server state goes with each; the probe stays local', async (t) => {
  const ops: EncodedOp[] = [put('1!msg!000000000007', { id: 7 }), put('2!user!000000000001', { id: 1 }), put('server!counter!message', 7), put('server!wake!000000000002', 1), put('server!probe', 1), { type: 'del', key: '1!unread!x' }];
  const batches = splitByRealm('n1', ops);
  t.same([...batches.keys()].sort(), [1, 2]);
  t.same(batches.get(1)!.ops.map((op) => op[1]), ['1!msg!000000000007', '1!unread!x', 'server!counter!message']);
  t.same(batches.get(2)!.ops.map((op) => op[1]), ['2!user!000000000001', 'server!wake!000000000002', 'server!counter!message']);
  t.equal(realmOfBatch([{ key: 'server!counter!message' }, { key: '2!realm' }]), 2);
  t.equal(realmOfBatch([{ key: 'server!probe' }]), undefined);
});

test('a follower applies an entry once, records its sequence, and never moves a server counter back', async (t) => {
  const store = new Map<string, unknown>([['server!counter!message', 50]]);
  const raised: [string, number][] = [];
  const batch = unpackBatch(packBatch({ node: 'n1', ops: [[0, '1!msg!000000000009', encode({ id: 9 })], [0, 'server!counter!message', encode(9)], [1, '1!gone']] }));
  const ops = opsToApply(1, 4, batch, (key) => store.get(key), (key, value) => raised.push([key, value]))!;
  t.same(ops.map((op) => op.key), ['1!msg!000000000009', '1!gone', appliedKey(1)], 'the counter below ours is not written');
  t.same(raised, [['server!counter!message', 9]], "the node's counters are told (they keep the larger)");
  const written = ops.at(-1)!;
  t.equal(written.type === 'put' && decode<number>(written.value), 4);
  store.set(appliedKey(1), 4);
  t.equal(opsToApply(1, 4, batch, (key) => store.get(key), () => undefined), undefined, 'an entry already applied is skipped');
  t.equal(opsToApply(1, 3, batch, (key) => store.get(key), () => undefined), undefined, 'and so is an older one');
});
