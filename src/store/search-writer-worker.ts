/**
 * The search index's writer, in a worker thread: it owns the write connection of every index file
 * of the process and takes in batches of documents, one transaction each. FTS5 merges its segments
 * during writes, and a merge of a large index's segments holds a transaction for tens or hundreds
 * of milliseconds: here it never stops the event loop that answers requests.
 */
import { parentPort } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';
import { prepareText } from '../domain/search-text.js';
import { TOKENIZER } from './text-matcher.js';
import type { WriterReply, WriterRequest } from './search-writer.js';

interface IndexFile {
  sql: BetterSqlite3.Database;
  apply: (request: Extract<WriterRequest, { op: 'index' }>) => void;
}

const files = new Map<string, IndexFile>();

function openIndexFile(path: string): IndexFile {
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

function handle(request: WriterRequest): void {
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

parentPort!.on('message', (request: WriterRequest) => {
  let reply: WriterReply;
  try {
    handle(request);
    reply = { seq: request.seq };
  } catch (error) {
    reply = { seq: request.seq, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(reply);
});
