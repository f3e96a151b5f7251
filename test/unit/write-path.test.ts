/**
 * The write path's rollback: a change that throws, a change that awaits, and a LevelDB write
 * that fails all leave memory exactly as the store has it.
 */
import { test } from 'tap';
import { rmSync } from 'node:fs';
import { Database } from '../../src/store/database.js';
import { Transaction } from '../../src/store/transaction.js';
import { runWrite } from '../../src/store/write.js';
import { tempDataDir } from '../helpers/server.js';

test('rollback runs the undo steps newest first, once, and a sealed transaction takes no more changes', async (t) => {
  const tx = new Transaction();
  const order: number[] = [];
  tx.onRollback(() => order.push(1));
  tx.onRollback(() => order.push(2));
  tx.rollback();
  tx.rollback();
  t.same(order, [2, 1]);
  const sealed = new Transaction();
  sealed.put('k', 1);
  sealed.seal();
  t.throws(() => sealed.put('k', 2), /sealed/);
  t.throws(() => sealed.onRollback(() => {}), /sealed/);
});

test('runWrite: a throwing change is rolled back and never committed; an asynchronous one is refused', async (t) => {
  const memory = new Map<string, number>();
  let commits = 0;
  const commit = async () => void commits++;
  await t.rejects(runWrite(commit, (tx) => {
    memory.set('a', 1);
    tx.onRollback(() => memory.delete('a'));
    throw new Error('refused');
  }), /refused/);
  t.equal(memory.size, 0);
  t.equal(commits, 0);
  const asynchronous = (async () => 1) as unknown as (tx: Transaction) => number;
  await t.rejects(runWrite(commit, asynchronous), /synchronously/);
  t.equal(commits, 0);
  t.equal(await runWrite(commit, () => 7), 7);
  t.equal(commits, 1);
});

test('database: a failed write rolls back every batch not yet durable, newest first, hides their values, and refuses writes until the store is reopened', async (t) => {
  const dir = tempDataDir();
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const db = await Database.open(dir, { sync: false, recovery: { firstDelayMs: 20, maxDelayMs: 50, minFreeBytes: 0 } });
  t.teardown(() => db.close());
  await db.commit([{ type: 'put', key: 'k!a', value: 'durable' }]);

  // Make the next LevelDB write fail, as a full disk would.
  let failNext = true;
  db.faults.beforeWrite = () => {
    if (failNext) {
      failNext = false;
      throw new Error('disk full');
    }
  };
  const undone: string[] = [];
  const first = db.commit([{ type: 'put', key: 'k!a', value: 'lost' }], () => undone.push('first'));
  const second = db.commit([{ type: 'put', key: 'k!b', value: 'lost' }], () => undone.push('second'));
  t.equal(db.get('k!a'), 'lost', 'pending writes are readable before the failure');
  await t.rejects(first, { code: 'SERVER_NOT_READY', status: 503, message: /store failed a write/ });
  t.match(db.unavailable?.reason, /disk full/, 'the reason for operators names the error');
  await t.rejects(second, { code: 'SERVER_NOT_READY', status: 503 });
  t.same(undone, ['second', 'first']);
  t.equal(db.get('k!a'), 'durable', 'the overlay forgot what was never written');
  t.equal(db.get('k!b'), undefined);
  t.equal(db.writable, false, 'the store refuses writes until it is reopened');
  let refusedRolledBack = false;
  await t.rejects(db.commit([{ type: 'put', key: 'k!c', value: 'x' }], () => (refusedRolledBack = true)), { code: 'SERVER_NOT_READY' });
  t.ok(refusedRolledBack, 'a refused batch is rolled back at once');
  while (!db.writable) await new Promise((resolve) => setTimeout(resolve, 10));
  t.equal(db.outages.recoveries, 1, 'reopened once');
  t.equal(db.get('k!a'), 'durable', 'reads after the reopen see what was durable');
  await db.commit([{ type: 'put', key: 'k!b', value: 'written' }]);
  t.equal(db.get('k!b'), 'written', 'the store writes again after the reopen');
});

test('views never build or commit a transaction themselves: every request writes through services.write', async (t) => {
  const { readdirSync, readFileSync } = await import('node:fs');
  const { fileURLToPath } = await import('node:url');
  const dir = fileURLToPath(new URL('../../../src/api/', import.meta.url));
  const offenders = readdirSync(dir)
    .filter((name) => name.endsWith('.ts'))
    .filter((name) => /new Transaction\(|\.commit\(/.test(readFileSync(dir + name, 'utf8')));
  t.same(offenders, []);
});

test('database: an empty batch committed while a write is in flight still resolves', async (t) => {
  const dir = tempDataDir();
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const db = await Database.open(dir, { sync: true });
  t.teardown(() => db.close());
  const first = db.commit([{ type: 'put', key: 'k!a', value: 1 }]);
  // Let the group commit start its (synced, asynchronous) LevelDB write.
  await new Promise<void>((resolve) => setImmediate(resolve));
  const empty = db.commit([]);
  const outcome = await Promise.race([
    Promise.all([first, empty]).then(() => 'resolved'),
    // A synced write on a busy disk can take seconds: the bound only tells a hang from slowness.
    new Promise<string>((resolve) => setTimeout(() => resolve('still waiting after 60 s'), 60_000).unref()),
  ]);
  t.equal(outcome, 'resolved');
});
