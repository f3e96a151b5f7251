/** Unit tests of the store: reads through pending writes, range scans, group commit, counters. */
import { test } from 'tap';
import { rmSync } from 'node:fs';
import { Database } from '../../src/store/database.js';
import { Counters } from '../../src/store/counters.js';
import { Transaction } from '../../src/store/transaction.js';
import { pad, prefixRange, realmKeys, escapePart } from '../../src/store/keys.js';
import { tempDataDir } from '../helpers/server.js';

test('keys: fixed width ids sort numerically; free text cannot break out of its part', async (t) => {
  t.ok(pad(9) < pad(10));
  t.equal(pad(123).length, 12);
  t.equal(pad(0), '000000000000');
  t.equal(pad(123), '000000000123');
  t.equal(pad(999_999_999_999), '999999999999');
  t.equal(pad(1_000_000_000_000), '1000000000000', 'a number wider than the width is left as it is');
  const keys = realmKeys(1);
  t.ok(keys.message(2) < keys.message(10));
  t.not(escapePart('a!b'), 'a!b');
  t.equal(escapePart('100% done!'), '100%25 done%21');
  t.equal(escapePart('plain topic'), 'plain topic');
  t.notOk(keys.topicMessage(1, 'a!000000000001', 5).startsWith(keys.topicMessagePrefix(1, 'a')));
});

test('database: batches written in one turn share one LevelDB write; reads see pending writes', async (t) => {
  const dir = tempDataDir();
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const db = await Database.open(dir, { sync: true });
  const before = db.writes;
  const commits = [];
  for (let i = 0; i < 50; i++) {
    commits.push(db.commit([{ type: 'put', key: `k!${pad(i)}`, value: { i } }]));
    t.same(db.get(`k!${pad(i)}`), { i }, 'visible before it is on disk');
  }
  await Promise.all(commits);
  t.equal(db.writes - before, 1, 'fifty batches from one turn: one write');

  await db.commit([{ type: 'del', key: `k!${pad(3)}` }]);
  t.equal(db.get(`k!${pad(3)}`), undefined);

  const scanned: number[] = [];
  for await (const [, value] of db.scan<{ i: number }>(prefixRange('k!'), { reverse: true, limit: 5 })) scanned.push(value.i);
  t.same(scanned, [49, 48, 47, 46, 45], 'reverse range scan in key order');
  const keys: string[] = [];
  for await (const key of db.scanKeys({ gte: `k!${pad(1)}`, lt: `k!${pad(5)}` })) keys.push(key);
  t.same(keys, [1, 2, 4].map((i) => `k!${pad(i)}`));
  await db.close();

  const reopened = await Database.open(dir, { sync: true });
  t.same(reopened.get(`k!${pad(49)}`), { i: 49 }, 'durable across reopen');
  await reopened.close();
});

test('counters: ids increase, and a batch sealed late cannot move the counter back', async (t) => {
  const dir = tempDataDir();
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const db = await Database.open(dir, { sync: false });
  const counters = new Counters(db);
  const first = new Transaction();
  const second = new Transaction();
  t.equal(counters.next('c', first), 1);
  t.equal(counters.next('c', second), 2);
  await db.commit(second.seal());
  await db.commit(first.seal());
  await db.close();
  const reopened = await Database.open(dir, { sync: false });
  t.equal(new Counters(reopened).current('c'), 2);
  await reopened.close();
});

test('a record written many times in one write is written once, its last value, and read back meanwhile', async (t) => {
  const dir = tempDataDir();
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const db = await Database.open(dir, { sync: false });
  t.teardown(() => db.close());
  await db.commit([{ type: 'put', key: 'gone', value: 'here before' }]);
  const tx = new Transaction();
  t.equal(tx.lastWrite('topic'), undefined, 'nothing set yet');
  tx.writeLast('topic', { n: 1 });
  tx.put('other', 1);
  tx.writeLast('topic', { n: 2 });
  t.same(tx.lastWrite('topic'), { value: { n: 2 } }, 'a later step reads the earlier one');
  tx.writeLast('gone', undefined);
  t.same(tx.lastWrite('gone'), { value: undefined }, 'a deletion reads back as nothing');
  const ops = tx.seal();
  t.same(ops.filter((op) => op.key === 'topic'), [{ type: 'put', key: 'topic', value: { n: 2 } }], 'one op, the last value');
  t.same(ops.filter((op) => op.key === 'gone'), [{ type: 'del', key: 'gone' }]);
  await db.commit(ops);
  await db.close();
  const reopened = await Database.open(dir, { sync: false });
  t.same(reopened.get('topic'), { n: 2 }, 'on disk');
  t.equal(reopened.get('gone'), undefined, 'deleted on disk');
  t.equal(reopened.get('other'), 1);
  await reopened.close();
});
