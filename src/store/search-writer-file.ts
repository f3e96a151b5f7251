/**
 * The search index's write connection and what it does with each request: used by the writer's
 * worker thread (`search-writer-worker.ts`), and on the main thread while an index is small
 * (`search-writer.ts`), where its merges are short.
 */
import BetterSqlite3 from 'better-sqlite3';
import { prepareText } from '../domain/search-text.js';
import { TOKENIZER } from './text-matcher.js';

/** One document for the index: `replace` removes what the index holds under its id first; no `content`: only removed. */
export interface WriterDoc {
  id: number;
  replace: boolean;
  content?: string;
  topic?: string;
  scope?: string;
}

/** What is asked of a writer. */
export type WriterBody = { op: 'open' } | { op: 'index'; docs: WriterDoc[]; through?: number } | { op: 'checkpoint' } | { op: 'close' };

/** A request to the worker: what is asked, of which file, under which number. */
export type WriterRequest = { seq: number; path: string } & WriterBody;

export interface WriterReply {
  seq: number;
  error?: string;
}

export interface IndexFile {
  sql: BetterSqlite3.Database;
  apply: (request: Extract<WriterRequest, { op: 'index' }>) => void;
}

/** The index's tables, in a new file: the messages' words (contentless), `through` and the term list. */
export function createIndexTables(sql: BetterSqlite3.Database): void {
  sql.exec(`
    CREATE VIRTUAL TABLE message USING fts5(content, topic, scope, tokenize='${TOKENIZER}', content='', contentless_delete=1);
    CREATE TABLE meta(key TEXT PRIMARY KEY, value);
    CREATE TABLE term(t TEXT PRIMARY KEY) WITHOUT ROWID;
  `);
}

export function openIndexFile(path: string): IndexFile {
  const sql = new BetterSqlite3(path);
  // WAL: the readers (the main thread) never wait for this writer; NORMAL: a commit survives a
  // crash of the process; what a power loss costs, catch-up and the dirty keys bring back.
  sql.pragma('journal_mode = WAL');
  sql.pragma('synchronous = NORMAL');
  // Each batch indexed is also tokenized here, to list its terms in `term` (prefix expansion).
  sql.exec(`
    CREATE VIRTUAL TABLE temp.batch USING fts5(content, topic, tokenize='${TOKENIZER}', content='');
    CREATE VIRTUAL TABLE temp.batch_terms USING fts5vocab(temp, batch, 'row');
  `);
  const batchInsert = sql.prepare<[string, string]>('INSERT INTO temp.batch(content, topic) VALUES (?, ?)');
  const batchTerms = sql.prepare('INSERT OR IGNORE INTO term(t) SELECT term FROM temp.batch_terms');
  const batchClear = sql.prepare("INSERT INTO temp.batch(batch) VALUES ('delete-all')");
  const insert = sql.prepare<[number, string, string, string]>('INSERT INTO message(rowid, content, topic, scope) VALUES (?, ?, ?, ?)');
  const remove = sql.prepare<[number]>('DELETE FROM message WHERE rowid = ?');
  const setThrough = sql.prepare<[number]>("INSERT OR REPLACE INTO meta(key, value) VALUES ('through', ?)");
  const apply = sql.transaction((request: Extract<WriterRequest, { op: 'index' }>) => {
    for (const doc of request.docs) {
      if (doc.replace) remove.run(doc.id);
      if (doc.content === undefined) continue;
      const content = prepareText(doc.content);
      const topic = prepareText(doc.topic!);
      insert.run(doc.id, content, topic, doc.scope!);
      batchInsert.run(content, topic);
    }
    batchTerms.run();
    batchClear.run();
    if (request.through !== undefined) setThrough.run(request.through);
  });
  return { sql, apply };
}

/** Does one request on the index files open in `files` (opening or closing them as asked). */
export function handleRequest(files: Map<string, IndexFile>, request: WriterRequest): void {
  if (request.op === 'open') {
    if (!files.has(request.path)) files.set(request.path, openIndexFile(request.path));
    return;
  }
  const file = files.get(request.path);
  if (!file) throw new Error(`search index ${request.path} is not open`);
  if (request.op === 'index') file.apply(request);
  else if (request.op === 'checkpoint') file.sql.pragma('wal_checkpoint(TRUNCATE)');
  else {
    file.sql.close();
    files.delete(request.path);
  }
}

