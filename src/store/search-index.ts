/**
 * The full-text index of messages: an SQLite FTS5 table beside LevelDB, derived from it and
 * rebuildable from it at any time. It holds each message's text, topic and channel (scope)
 * under the message id, and records the id through which every message is indexed.
 *
 * Writes never wait for it: a message written (sent, edited, moved, deleted) is noted after its
 * batch is durable and indexed in a batch shortly after, off the request, by a worker thread
 * (`search-writer.ts`), so that FTS5's segment merges never hold up the event loop; this thread
 * only reads. What it does not hold
 * yet (the ids noted but not yet indexed, and during catch-up everything above the indexed id)
 * is matched by the caller from the records themselves (`TextMatcher`), so answers are right
 * at every moment. An edit, move or deletion of an indexed message also writes a small "dirty"
 * key in its own batch, so that after a crash the index learns of it at start even though the
 * in-memory note was lost; new messages need none (catch-up walks every id above the indexed one).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { MessageRecord } from '../domain/messages.js';
import { channelScope, prepareText, userScope } from '../domain/search-text.js';
import type { Database } from './database.js';
import { prefixRange, realmKeys, type RealmKeys } from './keys.js';
import type { MessageStore, MessageWatcher } from './messages.js';
import { TextMatcher, type SearchDocument } from './text-matcher.js';
import type { Transaction } from './transaction.js';
import { SearchWriter, type WriterDoc } from './search-writer.js';
import { createIndexTables } from './search-writer-file.js';

/** Bumped when the table's layout or tokenizer changes: an index of another version is rebuilt. */
export const SEARCH_LAYOUT_VERSION = 3;
/** A prefix with more index terms than this is searched as a prefix rather than as a list of terms. */
const MAX_EXPANSION = 32;
/** How long a noted change waits for others before the index takes them in one transaction. */
const FLUSH_DELAY_MS = 20;
const CATCH_UP_BATCH = 2000;
/** Pending ids past which the index takes them in even while held (searches match pending ids from the records). */
const HOLD_LIMIT = 5000;
/** An index holding messages up to this id is written on the main thread; above, by the writer's worker thread. */
const INLINE_THROUGH = 50_000;
/** How often the index is checkpointed, after which the dirty keys it has taken in are deleted. */
const CHECKPOINT_MS = 60_000;

/** Where the search index lives: beside the store, in the data directory. */
export const searchIndexDir = (dataDir: string) => join(dataDir, 'search');

export interface SearchWalk {
  reverse: boolean;
  /** Only ids below (reverse) or above (forward) this one… */
  from?: number;
  /** …including it. */
  inclusive?: boolean;
}

/**
 * What a message contributes to the index. Its scope names its channel (or `dm`) and every user
 * holding a row of it (`userIds`: direct message participants, and whoever has a channel message
 * outside their reception intervals), so that a search of one user's messages can ask the index
 * for their channels and their rows only (see `viewerScopes`).
 */
export function searchDocument(record: Pick<MessageRecord, 'type' | 'channelId' | 'content' | 'topic'> & Partial<Pick<MessageRecord, 'userIds' | 'dmUserIds'>>): SearchDocument {
  const holders = new Set(record.userIds);
  for (const id of record.dmUserIds ?? []) holders.add(id);
  const place = record.type === 'stream' ? channelScope(record.channelId!) : 'dm';
  const scope = holders.size === 0 ? place : `${place} ${[...holders].map(userScope).join(' ')}`;
  return { content: record.content, topic: record.topic ?? '', scope };
}

export class SearchIndex implements MessageWatcher {
  readonly matcher = new TextMatcher();
  /** The main thread's connection: reads only (the worker behind `writer` writes). */
  private readonly sql: BetterSqlite3.Database;
  private writer: SearchWriter;
  private readonly keys: RealmKeys;
  private readonly path: string;
  /** Every message with an id up to this one is in the index, but for those in `pending`. */
  private through: number;
  private caughtUp = false;
  /** Ids written whose latest state the index may not hold yet: matched from their records meanwhile. */
  private readonly pending = new Set<number>();
  /** Pending ids whose latest state was sent to the writer, with the number of the batch that carries it. */
  private readonly sentIn = new Map<number, number>();
  private batches = 0;
  /** Batches sent and not yet committed. */
  private readonly inFlight = new Set<Promise<void>>();
  /** Ids above `through` indexed from `pending` while catching up: catch-up skips them. */
  private readonly indexedAhead = new Set<number>();
  /** The newest message id seen: an id at or below it that is written again is an edit, move or deletion. */
  private newestSeen = 0;
  /** Dirty keys whose change the index has taken in; deleted after the next checkpoint. */
  private dirtyTaken: number[] = [];
  private flushTimer: NodeJS.Timeout | undefined;
  /** Holders asking the index to wait (see `hold`). */
  private holds = 0;
  private checkpointTimer: NodeJS.Timeout | undefined;
  private catchingUp: Promise<void> | undefined;
  private closed = false;
  private readonly statements;

  private constructor(
    sql: BetterSqlite3.Database,
    path: string,
    private readonly db: Database,
    private readonly messages: MessageStore,
    realmId: number,
    private readonly onError: (error: unknown) => void,
  ) {
    this.sql = sql;
    this.path = path;
    this.keys = realmKeys(realmId);
    this.statements = {
      termsFrom: sql.prepare<[string, string, number], { t: string }>('SELECT t FROM term WHERE t >= ? AND t < ? ORDER BY t LIMIT ?'),
      newestFirst: sql.prepare<[string, number, number], { rowid: number }>('SELECT rowid FROM message WHERE message MATCH ? AND rowid <= ? ORDER BY rowid DESC LIMIT ?'),
      oldestFirst: sql.prepare<[string, number, number], { rowid: number }>('SELECT rowid FROM message WHERE message MATCH ? AND rowid >= ? ORDER BY rowid ASC LIMIT ?'),
      count: sql.prepare<[], { n: number }>('SELECT count(*) AS n FROM message'),
    };
    const row = sql.prepare<[], { value: number }>("SELECT value FROM meta WHERE key = 'through'").get();
    this.through = row?.value ?? 0;
    this.writer = new SearchWriter(path, this.through < INLINE_THROUGH);
  }

  /**
   * The writer for the next request: once the index has grown large, its writes move to the
   * worker thread (an inline writer has nothing in flight: its requests are done when sent).
   */
  private currentWriter(): SearchWriter {
    if (this.writer.inline && this.through >= INLINE_THROUGH) {
      void this.writer.close();
      this.writer = new SearchWriter(this.path, false);
    }
    return this.writer;
  }

  /** Opens (or creates) the index of an organization in `dir`; an index of another layout is started afresh. */
  static open(dir: string, db: Database, messages: MessageStore, realmId: number, onError: (error: unknown) => void): SearchIndex {
    mkdirSync(dir, { recursive: true });
    const path = join(dir, `search-${realmId}.sqlite`);
    let sql = openFile(path);
    const version = sql.pragma('user_version', { simple: true }) as number;
    if (version !== SEARCH_LAYOUT_VERSION) {
      sql.close();
      removeFile(path);
      sql = openFile(path);
      createIndexTables(sql);
      sql.pragma(`user_version = ${SEARCH_LAYOUT_VERSION}`);
    }
    const index = new SearchIndex(sql, path, db, messages, realmId, onError);
    messages.watcher = index;
    return index;
  }

  /** Ids up to this one are answered by the index (but for `isPending` ones); above it, by the records. */
  get indexedLimit(): number {
    return this.caughtUp ? Number.MAX_SAFE_INTEGER : this.through;
  }

  isPending(id: number): boolean {
    return this.pending.has(id);
  }

  /** The ids written but not yet indexed, ascending. */
  pendingIds(): number[] {
    return [...this.pending].sort((a, b) => a - b);
  }

  get isCaughtUp(): boolean {
    return this.caughtUp;
  }

  get indexedThrough(): number {
    return this.through;
  }

  // --- keeping up with writes ------------------------------------------------------------

  /** MessageWatcher: a record is being written or deleted in `tx`. */
  changed(id: number, tx: Transaction): void {
    if (id <= this.newestSeen) tx.put(this.keys.searchDirty(id), 1);
    else this.newestSeen = id;
    const note = () => this.note(id);
    tx.afterCommit.push(note);
    // A rolled-back edit may have been indexed from memory meanwhile: index it again from the store.
    tx.onRollback(note);
  }

  private note(id: number): void {
    if (this.closed) return;
    this.pending.add(id);
    // Its latest state has not been sent: a batch already carrying it leaves it pending.
    this.sentIn.delete(id);
    if (this.holds === 0 || this.pending.size >= HOLD_LIMIT) this.flushTimer ??= setTimeout(() => void this.flush(), FLUSH_DELAY_MS);
  }

  /**
   * Asks the index to take nothing in until the returned function is called (a burst of scheduled
   * messages due at once: sending records to the writer meanwhile would only make the last of
   * them later). What is written meanwhile stays pending, answered from the records, and is
   * indexed once every holder has released; past HOLD_LIMIT pending ids it is taken in anyway.
   */
  hold(): () => void {
    this.holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds--;
      if (this.holds === 0 && this.pending.size > 0 && !this.closed) this.flushTimer ??= setTimeout(() => void this.flush(), FLUSH_DELAY_MS);
    };
  }

  /** Sends the pending ids' current records to the writer in one batch; resolves when every batch sent so far is committed. */
  flush(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const ids = this.closed ? [] : this.pendingIds().filter((id) => !this.sentIn.has(id));
    if (ids.length) this.send(ids);
    return this.settled();
  }

  private send(ids: number[]): void {
    let docs: WriterDoc[];
    try {
      docs = ids.map((id) => this.replacement(id));
    } catch (error) {
      // The store cannot be read (it failed, e.g. a full disk): left pending, sent at the next change.
      this.onError(error);
      return;
    }
    const batch = ++this.batches;
    for (const id of ids) this.sentIn.set(id, batch);
    const caughtUp = this.caughtUp;
    const through = caughtUp ? Math.max(this.through, ids.at(-1)!) : undefined;
    const done = this.currentWriter().send({ op: 'index', docs, through }).then(
      () => {
        if (through !== undefined) this.through = Math.max(this.through, through);
        for (const id of ids) {
          if (this.sentIn.get(id) !== batch) continue;
          this.sentIn.delete(id);
          this.pending.delete(id);
          if (!this.caughtUp && id > this.through) this.indexedAhead.add(id);
          this.dirtyTaken.push(id);
        }
      },
      (error: unknown) => {
        // Left pending (answered from the records) and sent again at the next change.
        for (const id of ids) if (this.sentIn.get(id) === batch) this.sentIn.delete(id);
        this.onError(error);
      },
    );
    this.inFlight.add(done);
    void done.finally(() => this.inFlight.delete(done));
  }

  /** Resolves when every batch sent so far is committed (or failed). */
  private async settled(): Promise<void> {
    await Promise.all([...this.inFlight]);
  }

  /**
   * The index's terms that start with a prefix, or undefined when there are more than a few:
   * FTS5 answers a prefix query by merging the postings of every such term before it can return
   * the newest match, while an OR of exact terms is read lazily in id order, a page at a time.
   */
  expandPrefix(prefix: string): string[] | undefined {
    const rows = this.statements.termsFrom.all(prefix, prefixUpperBound(prefix), MAX_EXPANSION + 1);
    return rows.length > MAX_EXPANSION ? undefined : rows.map((row) => row.t);
  }

  // --- start-up ------------------------------------------------------------------------

  /**
   * Brings the index up to date with the store: first the edits, moves and deletions a crash
   * kept from it (the dirty keys), then, in the background, every message above the indexed id.
   * Searches meanwhile match the not-yet-indexed messages from their records.
   */
  async start(newestId: number): Promise<void> {
    this.newestSeen = newestId;
    const dirty: number[] = [];
    for await (const key of this.db.scanKeys(prefixRange(this.keys.searchDirtyPrefix))) dirty.push(Number(key.slice(-12)));
    const stale = dirty.filter((id) => id <= this.through);
    if (stale.length) await this.currentWriter().send({ op: 'index', docs: stale.map((id) => this.replacement(id)) });
    if (dirty.length) await this.db.commit(dirty.map((id) => ({ type: 'del' as const, key: this.keys.searchDirty(id) })));
    this.checkpointTimer = setInterval(() => void this.checkpoint(), CHECKPOINT_MS);
    this.checkpointTimer.unref();
    this.catchingUp = this.catchUp().catch((error) => this.onError(error));
  }

  private replacement(id: number): WriterDoc {
    const record = this.messages.get(id);
    return record ? { id, replace: true, ...searchDocument(record) } : { id, replace: true };
  }

  /** Indexes every stored message above `through`, a batch at a time (each committed before the next is read). */
  async catchUp(progress?: (done: number) => void): Promise<void> {
    let batch: MessageRecord[] = [];
    let done = 0;
    const take = async () => {
      // Ids sent from `pending` meanwhile are newer than the scan's copy: theirs stands.
      const docs = batch.filter((r) => !this.indexedAhead.has(r.id) && !this.sentIn.has(r.id)).map((r): WriterDoc => ({ id: r.id, replace: false, ...searchDocument(r) }));
      const through = batch.at(-1)!.id;
      await this.currentWriter().send({ op: 'index', docs, through });
      this.through = through;
      done += batch.length;
      progress?.(done);
      batch = [];
    };
    for await (const record of this.messages.recordsAfter(this.through)) {
      if (this.closed) return;
      batch.push(record);
      if (batch.length >= CATCH_UP_BATCH) await take();
    }
    if (batch.length) await take();
    this.caughtUp = true;
    this.indexedAhead.clear();
    // Ids taken from `pending` above the last stored one while catching up are in the index too.
    await this.flush();
  }

  /** Resolves when catch-up has finished (tests, the CLI). */
  async caughtUpPromise(): Promise<void> {
    await this.catchingUp;
  }

  private async checkpoint(): Promise<void> {
    if (this.closed) return;
    const taken = this.dirtyTaken;
    this.dirtyTaken = [];
    try {
      await this.currentWriter().send({ op: 'checkpoint' });
      const ops = [...new Set(taken)].filter((id) => id <= this.newestSeen).map((id) => ({ type: 'del' as const, key: this.keys.searchDirty(id) }));
      if (ops.length) await this.db.commit(ops);
    } catch (error) {
      this.dirtyTaken.push(...taken);
      this.onError(error);
    }
  }

  // --- reading -------------------------------------------------------------------------

  /**
   * Ids of indexed messages matching an FTS5 query, in id order from an anchor, read in pages
   * that grow; ids above `indexedLimit` and pending ones are left to the caller.
   */
  *hits(query: string, walk: SearchWalk): Generator<number> {
    const limit = this.indexedLimit;
    let bound = walk.from === undefined ? (walk.reverse ? limit : 0) : walk.inclusive ? walk.from : walk.reverse ? walk.from - 1 : walk.from + 1;
    if (walk.reverse) bound = Math.min(bound, limit);
    let page = 64;
    for (;;) {
      if (walk.reverse ? bound < 0 : bound > limit) return;
      const rows = (walk.reverse ? this.statements.newestFirst : this.statements.oldestFirst).all(query, bound, page);
      for (const { rowid } of rows) {
        if (!walk.reverse && rowid > limit) return;
        if (!this.pending.has(rowid)) yield rowid;
      }
      if (rows.length < page) return;
      bound = walk.reverse ? rows.at(-1)!.rowid - 1 : rows.at(-1)!.rowid + 1;
      page = Math.min(page * 4, 4096);
    }
  }

  /** Number of messages in the index (the CLI, the bench). */
  size(): number {
    return this.statements.count.get()!.n;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.flush();
    this.closed = true;
    if (this.flushTimer) clearTimeout(this.flushTimer);
    if (this.checkpointTimer) clearInterval(this.checkpointTimer);
    await this.catchingUp;
    await this.settled();
    await this.writer.close();
    this.sql.close();
    this.matcher.close();
  }
}

/** The smallest string above every string that starts with `prefix` (its last code point plus one). */
function prefixUpperBound(prefix: string): string {
  const points = Array.from(prefix);
  const last = points.pop()!.codePointAt(0)!;
  return points.join('') + String.fromCodePoint(Math.min(last + 1, 0x10ffff));
}

function openFile(path: string): BetterSqlite3.Database {
  const sql = new BetterSqlite3(path);
  // WAL: a reader never waits for the writer; NORMAL: a commit survives a crash of the process
  // (the operating system keeps it); a power loss may cost the last commits, which catch-up and
  // the dirty keys (deleted only after a checkpoint) bring back.
  sql.pragma('journal_mode = WAL');
  sql.pragma('synchronous = NORMAL');
  return sql;
}

function removeFile(path: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
}

/** Deletes an organization's index file (the CLI's rebuild), so that the next open starts afresh. */
export function removeSearchIndex(dir: string, realmId: number): void {
  removeFile(join(dir, `search-${realmId}.sqlite`));
}
