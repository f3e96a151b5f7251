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

test('database: a failed write rolls back every batch not yet durable, newest first, and hides their values', async (t) => {
  const dir = tempDataDir();
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const db = await Database.open(dir, { sync: false });
  t.teardown(() => db.close());
  await db.commit([{ type: 'put', key: 'k!a', value: 'durable' }]);

  // Make the next LevelDB write fail, as a full disk would.
  const native = db as unknown as { native: { _batch: (...args: unknown[]) => Promise<void> } };
  const level = native.native;
  const real = level._batch;
  let failNext = true;
  native.native = {
    _batch: (...args: unknown[]) => {
      if (failNext) {
        failNext = false;
        return Promise.reject(new Error('disk full'));
      }
      return real.apply(level, args);
    },
  };
  const undone: string[] = [];
  const first = db.commit([{ type: 'put', key: 'k!a', value: 'lost' }], () => undone.push('first'));
  const second = db.commit([{ type: 'put', key: 'k!b', value: 'lost' }], () => undone.push('second'));
  t.equal(db.get('k!a'), 'lost', 'pending writes are readable before the failure');
  await t.rejects(first, /disk full/);
  await t.rejects(second, /disk full/);
  t.same(undone, ['second', 'first']);
  t.equal(db.get('k!a'), 'durable', 'the overlay forgot what was never written');
  t.equal(db.get('k!b'), undefined);
  await db.commit([{ type: 'put', key: 'k!b', value: 'written' }]);
  t.equal(db.get('k!b'), 'written', 'the store writes again after a failure');
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
    new Promise<string>((resolve) => setTimeout(() => resolve('still waiting after 5 s'), 5000).unref()),
  ]);
  t.equal(outcome, 'resolved');
});
