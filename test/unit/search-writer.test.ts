/** The search index's writer thread: when it stops, writers get an answer (never a wait without end) and carry on in a new one. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { test, type Test } from 'tap';
import { createIndexTables } from '../../src/store/search-writer-file.js';
import { SearchWriter, sharedWriterThread } from '../../src/store/search-writer.js';

function newIndexFile(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'parley-search-writer-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'search.sqlite');
  const sql = new BetterSqlite3(path);
  createIndexTables(sql);
  sql.close();
  return path;
}

const doc = (id: number, content: string) => ({ id, replace: false, content, topic: 'greetings', scope: 'c1' });

function indexedIds(path: string): number[] {
  const sql = new BetterSqlite3(path, { readonly: true });
  try {
    return sql.prepare<[], { rowid: number }>("SELECT rowid FROM message WHERE message MATCH 'hello' ORDER BY rowid").all().map((row) => row.rowid);
  } finally {
    sql.close();
  }
}

test('a writer whose thread stopped starts another with its next request', async (t) => {
  const path = newIndexFile(t);
  const writer = new SearchWriter(path, false);
  await writer.send({ op: 'index', docs: [doc(1, 'hello one')], through: 1 });
  const first = sharedWriterThread();
  t.ok(first, 'the shared thread runs');
  // Stopped between requests (terminating a thread in the middle of a native SQLite call can
  // wait on it): a request in flight then is refused by the exit handler, as before.
  first!.ref();
  await first!.terminate();
  // The next request (the index sends again what was refused) goes through a new thread.
  await writer.send({ op: 'index', docs: [doc(2, 'hello two'), doc(3, 'hello three')], through: 3 });
  t.not(sharedWriterThread(), first, 'another thread');
  await writer.close();
  t.same(indexedIds(path), [1, 2, 3], 'every document written once');
  t.equal(sharedWriterThread(), undefined, 'the thread stops with its last file');
});

test('closing after the thread stopped returns', async (t) => {
  const path = newIndexFile(t);
  const writer = new SearchWriter(path, false);
  await writer.send({ op: 'index', docs: [doc(1, 'hello')], through: 1 });
  const thread = sharedWriterThread()!;
  thread.ref();
  await thread.terminate();
  await writer.close();
  t.pass('close returned');
  t.equal(sharedWriterThread(), undefined);
});
