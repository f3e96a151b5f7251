/**
 * Unit tests of what the message store holds in memory: index ranges (store/id-lists.ts) and
 * users' rows (store/row-book.ts). Each is read whole in the background on first use; changes made
 * durable while it is read are applied after, and none is lost or applied twice; walks survive
 * changes between their steps; the bounds hold.
 */
import { test } from 'tap';
import { IdLists } from '../../src/store/id-lists.js';
import { RowBook } from '../../src/store/row-book.js';
import { Transaction } from '../../src/store/transaction.js';

/** A reader that yields `items` only once `open()` is called, as a store read that takes a while. */
function gatedReader<T>(items: () => T[]) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let reads = 0;
  return {
    read: async function* (): AsyncGenerator<T> {
      reads++;
      await gate;
      for (const item of items()) yield item;
    },
    open: () => open(),
    reads: () => reads,
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

test('id lists: read once, changes during the read kept, walks in both directions', async (t) => {
  const disk = [2, 4, 6, 8];
  const reader = gatedReader(() => [...disk]);
  const lists = new IdLists(() => reader.read());
  t.equal(lists.walk('p', 0, 100, true), undefined, 'not in memory at first use: the caller reads the store');
  t.equal(lists.walk('p', 0, 100, true), undefined, 'nor while it is read');
  t.equal(reader.reads(), 1, 'one read');
  // Made durable while the list is read: 10 is not in the read's snapshot, 4's removal is; 6 is in both.
  lists.added('p', 10);
  lists.removed('p', 4);
  lists.added('p', 6);
  disk.splice(1, 1);
  reader.open();
  await settle();
  t.same([...lists.walk('p', 0, 100, true)!], [10, 8, 6, 2], 'newest first, each once');
  t.same([...lists.walk('p', 3, 8, false)!], [6, 8], 'a bounded span, oldest first');
  lists.added('q', 1);
  t.equal(lists.walk('q', 0, 100, true), undefined, 'a change to a list not in memory is not kept');
  t.same(lists.counts, { loaded: 1, served: 2 });
});

test('id lists: lists walked during a read are read next in turn; slices are arrays of their own', async (t) => {
  const reader = gatedReader(() => [1, 2, 3, 4]);
  const lists = new IdLists((prefix) => (prefix === 'a' ? reader.read() : (async function* () {
    yield* [10, 20, 30];
  })()));
  t.equal(lists.slice('a', 0, 100, false), undefined, 'not in memory: its read starts');
  t.equal(lists.slice('b', 0, 100, false), undefined, 'b waits for a');
  t.equal(lists.walk('c', 0, 100, false), undefined, 'and c for b');
  t.equal(reader.reads(), 1, 'one read at a time');
  reader.open();
  for (let i = 0; i < 10 && lists.counts.loaded < 3; i++) await settle();
  t.equal(lists.counts.loaded, 3, 'a, then b, then c, with no walk in between');
  const slice = lists.slice('a', 2, 3, true)!;
  t.same(slice, [3, 2], 'a bounded span, newest first');
  slice.push(99);
  t.same(lists.slice('b', 0, 25, false), [10, 20], 'oldest first');
  t.same(lists.slice('a', 0, 100, false), [1, 2, 3, 4], 'the list is not the slice given out');
});

test('id lists: a walk goes on over a list that changes between its steps', async (t) => {
  const lists = new IdLists(async function* () {
    yield* [1, 2, 3, 4, 5];
  });
  lists.walk('p', 0, 100, true);
  await settle();
  const walk = lists.walk('p', 0, 100, true)![Symbol.iterator]();
  t.equal(walk.next().value, 5);
  lists.removed('p', 4);
  lists.added('p', 6);
  t.equal(walk.next().value, 3, 'the removed id is skipped, the newer one not given');
  lists.removed('p', 3);
  lists.added('p', 0);
  t.same([walk.next().value, walk.next().value, walk.next().value, walk.next().done], [2, 1, 0, true]);
});

test('id lists: bounded, least recently used first; a list too long is never held', async (t) => {
  const lists = new IdLists(async function* (prefix) {
    const n = prefix === 'long' ? 50 : 4;
    for (let i = 0; i < n; i++) yield i;
  }, 10);
  lists.walk('a', 0, 100, true);
  await settle();
  lists.walk('b', 0, 100, true);
  await settle();
  t.ok(lists.walk('a', 0, 100, true), 'a is used, b is now the oldest');
  lists.walk('c', 0, 100, true);
  await settle();
  t.ok(lists.walk('c', 0, 100, true));
  t.equal(lists.walk('b', 0, 100, true), undefined, 'b was dropped to keep 10 ids at most');
  await settle();
  lists.walk('long', 0, 100, true);
  await settle();
  t.equal(lists.walk('long', 0, 100, true), undefined, 'too long to hold: walked on disk');
  await settle();
  t.equal(lists.counts.loaded, 4, 'and never read whole again (a, b, c, and b once more)');
});

test('row book: read once, changes during the read applied in order, bounded', async (t) => {
  const disk = new Map([[1, 1], [5, 2]]);
  const reader = gatedReader(() => [...disk]);
  const book = new RowBook(() => reader.read(), 16);
  t.equal(book.rowsOf(7), undefined, 'not in memory at first use');
  book.changed(7, 9, 4);
  book.changed(7, 1, undefined);
  book.changed(7, 9, 6);
  disk.delete(1);
  reader.open();
  await settle();
  t.same([...book.rowsOf(7)!].sort((a, b) => a[0] - b[0]), [[5, 2], [9, 6]], 'the last change of each row wins');
  book.changed(7, 5, undefined);
  book.changed(8, 5, 1);
  t.same([...book.rowsOf(7)!], [[9, 6]]);
  book.changed(7, 3, 0);
  book.changed(7, 12, 0);
  t.same([book.unreadIds(7, 10, true), book.unreadIds(7, 10, false), book.unreadIds(7, 1, false)], [[12, 9, 3], [3, 9, 12], undefined], 'unread rows (without read) in id order, when few enough');
  book.changed(7, 3, 1);
  book.changed(7, 9, undefined);
  t.same(book.unreadIds(7, 10, false), [12], 'a row marked read or dropped leaves them');
  t.equal(book.rowsOf(8), undefined, 'a change to a book not in memory is not kept');

  const many = new RowBook(async function* () {
    for (let i = 0; i < 10; i++) yield [i, 1] as [number, number];
  }, 16);
  many.rowsOf(1);
  await settle();
  t.equal(many.rowsOf(1), undefined, 'more rows than a book may hold: read from the store');
  many.rowsOf(1);
  await settle();
  t.equal(many.counts.loaded, 0, 'and never read whole again');
});

test('row book: a row a write is changing is read from the store until the write is durable', async (t) => {
  const book = new RowBook(async function* () {
    yield [1, 0] as [number, number];
  });
  book.rowsOf(3);
  await settle();
  const tx = new Transaction();
  book.track(3, 1, 1, tx);
  t.ok(book.isHeld(3, 1), 'held from the change on');
  t.notOk(book.isHeld(3, 2));
  t.equal(book.rowsOf(3)!.get(1), 0, 'the book still shows what is durable');
  for (const after of tx.afterCommit) after();
  t.notOk(book.isHeld(3, 1), 'released once durable');
  t.equal(book.rowsOf(3)!.get(1), 1, 'and the book shows the change');
  const refused = new Transaction();
  book.track(3, 1, undefined, refused);
  refused.rollback();
  t.notOk(book.isHeld(3, 1), 'released by a rollback');
  t.equal(book.rowsOf(3)!.get(1), 1, 'which changes nothing');
});
