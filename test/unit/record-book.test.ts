/** Unit tests of the in-memory record book (store/record-book.ts): lookups, indexes, rollback, and reading back what was written. */
import { rmSync } from 'node:fs';
import { test, type Test } from 'tap';
import { Database } from '../../src/store/database.js';
import { realmKeys } from '../../src/store/keys.js';
import { MultiIndex, RecordBook, UniqueIndex } from '../../src/store/record-book.js';
import { Transaction } from '../../src/store/transaction.js';
import { tempDataDir } from '../helpers/server.js';

interface Note {
  id: number;
  name: string;
  ownerId: number;
  tags: number[];
  hidden?: boolean;
}

/** A book as the store's books are made: a prefix, a key per record, and the lookups it needs. */
class Notes extends RecordBook<number, Note> {
  readonly names = this.indexBy(new UniqueIndex((note: Note) => (note.hidden ? [] : [note.name.toLowerCase()])));
  readonly owners = this.indexBy(new MultiIndex((note: Note) => [note.ownerId]));
  readonly tags = this.indexBy(new MultiIndex((note: Note) => note.tags));

  constructor() {
    // Any prefix of the realm's key space will do; a test key is built the way the store builds one.
    const keys = realmKeys(7);
    super({ prefix: keys.attachmentPrefix, key: (note) => keys.attachment(note.id), id: (note) => note.id });
  }
}

const ids = (notes: Iterable<Note>) => [...notes].map((note) => note.id);

async function openDb(t: Test): Promise<{ db: Database; dir: string }> {
  const dir = tempDataDir();
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return { db: await Database.open(dir, { sync: false }), dir };
}

test('save, lookups by id and by index, delete', async (t) => {
  const book = new Notes();
  const tx = new Transaction();
  book.save({ id: 1, name: 'One', ownerId: 10, tags: [100, 101] }, tx);
  book.save({ id: 2, name: 'Two', ownerId: 10, tags: [101] }, tx);
  book.save({ id: 3, name: 'Three', ownerId: 11, tags: [], hidden: true }, tx);
  t.equal(book.size, 3);
  t.equal(book.get(2)?.name, 'Two');
  t.same(ids(book.all()), [1, 2, 3], 'in the order first met');
  t.equal(book.names.get('one')?.id, 1, 'a unique index finds by its value');
  t.equal(book.names.get('three'), undefined, 'a record with no value for an index is not in it');
  t.same(ids(book.owners.get(10)), [1, 2], 'a group index finds every record with the value');
  t.same(ids(book.tags.get(101)), [1, 2], 'a record may sit under several values');
  t.same(book.owners.get(99), [], 'a value nobody has: none');
  t.same(tx.ops.map((op) => op.type), ['put', 'put', 'put'], 'each save is written in the transaction');

  book.save({ id: 1, name: 'Uno', ownerId: 11, tags: [] }, tx);
  t.equal(book.names.get('one'), undefined, 'a replaced record leaves its old values');
  t.equal(book.names.get('uno')?.id, 1);
  t.same(ids(book.owners.get(10)), [2]);
  t.same(ids(book.owners.get(11)), [3, 1]);
  t.same(ids(book.tags.get(100)), []);
  t.same(ids(book.all()), [1, 2, 3], 'a replaced record keeps its place');

  book.delete(2, tx);
  t.equal(book.get(2), undefined);
  t.equal(book.names.get('two'), undefined);
  t.same(ids(book.tags.get(101)), []);
  t.equal(tx.ops.at(-1)?.type, 'del', 'the deletion is written in the transaction');
  const written = tx.ops.length;
  book.delete(2, tx);
  t.equal(tx.ops.length, written, 'deleting what is not there writes nothing');
});

test('a unique value taken over by another record stays with it when the first goes', async (t) => {
  const book = new Notes();
  const tx = new Transaction();
  book.save({ id: 3, name: 'x', ownerId: 1, tags: [] }, tx);
  book.save({ id: 4, name: 'x', ownerId: 1, tags: [] }, tx);
  book.delete(3, tx);
  t.equal(book.names.get('x')?.id, 4, 'the record that took the value keeps it');
});

test('a rolled-back transaction leaves memory as it was, indexes included', async (t) => {
  const book = new Notes();
  const first = new Transaction();
  book.save({ id: 1, name: 'One', ownerId: 10, tags: [100] }, first);
  book.save({ id: 2, name: 'Two', ownerId: 10, tags: [100] }, first);
  const before = { all: [...book.all()], version: book.version };

  const tx = new Transaction();
  book.save({ id: 1, name: 'Changed', ownerId: 20, tags: [200] }, tx);
  book.save({ id: 3, name: 'Three', ownerId: 10, tags: [100] }, tx);
  book.delete(2, tx);
  tx.rollback();
  t.same([...book.all()], before.all, 'the same records, in the same objects');
  t.equal(book.get(1), before.all[0], 'the replaced record is back');
  t.equal(book.get(3), undefined, 'the added record is gone');
  t.equal(book.names.get('one')?.id, 1);
  t.equal(book.names.get('changed'), undefined);
  t.equal(book.names.get('two')?.id, 2, 'the deleted record is back in its indexes');
  t.same(ids(book.owners.get(10)).sort(), [1, 2]);
  t.same(book.owners.get(20), []);
  t.same(ids(book.tags.get(100)).sort(), [1, 2]);
  t.ok(book.version > before.version, 'the version moved on: what was derived meanwhile is stale');

  const sealed = new Transaction();
  sealed.seal();
  t.throws(() => book.save({ id: 9, name: 'Nine', ownerId: 1, tags: [] }, sealed), 'a sealed transaction refuses the change');
  t.equal(book.get(9), undefined, 'and memory did not take it');
});

test('load reads back what was committed, and only the book\'s prefix', async (t) => {
  const { db } = await openDb(t);
  const book = new Notes();
  const tx = new Transaction();
  book.save({ id: 1, name: 'One', ownerId: 10, tags: [100] }, tx);
  book.save({ id: 2, name: 'Two', ownerId: 10, tags: [] }, tx);
  book.save({ id: 3, name: 'Three', ownerId: 11, tags: [] }, tx);
  book.delete(3, tx);
  // A neighbouring prefix of the same realm is not the book's.
  tx.put(realmKeys(7).realmEmoji(1), { id: 1, name: 'not a note', ownerId: 10, tags: [] });
  await db.commit(tx.seal());

  const again = new Notes();
  await again.load(db);
  t.same([...again.all()], [...book.all()], 'the records written, in id order');
  t.equal(again.names.get('two')?.id, 2, 'indexes are built as records are read');
  t.same(ids(again.owners.get(10)), [1, 2]);
  t.same(ids(again.tags.get(100)), [1]);
  await db.close();
});
