/**
 * Messages in the store: the records, the per-user flag rows, and the index ranges a query
 * walks (a user's messages, unread, starred, mentioned; a channel's; a topic's; a
 * conversation's; a sender's). Recently used records are kept decoded in a bounded cache.
 */
import { Flag, MENTION_BITS, type MessageRecord } from '../domain/messages.js';
import type { Database } from './database.js';
import { pad, prefixEnd, prefixRange, realmKeys, type RealmKeys } from './keys.js';
import type { Transaction } from './transaction.js';
import { IdLists } from './id-lists.js';
import { mergeIds } from './merge-ids.js';
import { RowBook } from './row-book.js';
import { RecordCache } from './record-cache.js';
import { compactRecord } from './record-shape.js';
import { ID_WIDTH, isListedRange, MAX_ID, walkBounds } from './walk-range.js';

/** A channel's topic: its display name (latest casing), newest message and participants. */
export interface TopicRecord {
  name: string;
  maxId: number;
  /** Senders and reactors: the participants that topic wildcard mentions count. */
  participants: number[];
}


export const idOfKey = (key: string): number => Number(key.slice(key.length - ID_WIDTH));

export interface WalkOptions {
  /** Walk from newest to oldest. */
  reverse: boolean;
  /** Only ids below (reverse) or above (forward) this one… */
  from?: number;
  /** …including it. */
  inclusive?: boolean;
  /** How many ids the caller expects to use: the first read asks for about that many. */
  expected?: number;
}

/** The index ranges a walk can follow, named by what they list. */
export type MessageRange =
  | { of: 'topic'; channelId: number; topicKey: string }
  | { of: 'channel'; channelId: number }
  /** A channel's messages with ids in [from, to) (to: Infinity for no end). */
  | { of: 'channel-span'; channelId: number; from: number; to: number }
  /** The messages of several ranges, each id once, in id order. */
  | { of: 'union'; ranges: readonly MessageRange[] }
  | { of: 'conversation'; conversation: string }
  /**
   * A user's own indexes: the messages they hold a per-user row of, those unread that the read
   * marks do not tell, starred, mentioned (see "Per-user message state" in docs/architecture.md).
   */
  | { of: 'rows' | 'unread' | 'starred' | 'mentioned'; userId: number }
  | { of: 'sender'; userId: number }
  /** Every message of the organization. */
  | { of: 'all' };

/** Told of every message record written or deleted, inside the batch that does it (the search index). */
export interface MessageWatcher {
  changed(id: number, tx: Transaction): void;
}

export class MessageStore {
  watcher: MessageWatcher | undefined;
  readonly cache: RecordCache;
  /** Each user's newest per-user row, learned on first use and kept current by setFlags/dropFlags. */
  private readonly newestRowByUser = new Map<number, number>();
  /** Each channel's newest message id, learned on first use and kept current by index/unindex. */
  private readonly newestByChannel = new Map<number, number>();
  /** Ids indexed while a channel's newest was unknown: a lower bound for the next reading. */
  private readonly indexedFloor = new Map<number, number>();
  /** Newest delivered ids inside closed reception intervals, by channel and intervals. */
  private readonly newestInIntervals = new WeakMap<readonly number[], { channelId: number; value: number; generation: number }>();
  /** Bumped when a channel loses a message, so that a reading begun before is not kept. */
  private readonly channelGeneration = new Map<number, number>();

  private readonly keys: RealmKeys;
  /** Topic, channel, conversation and sender ranges held in memory (see id-lists.ts). */
  readonly lists = new IdLists((prefix) => this.allIds(prefix));
  /** Users' rows held in memory (see row-book.ts). */
  readonly rowBook = new RowBook((userId) => this.allRows(userId));

  constructor(
    readonly db: Database,
    realmId: number,
    /**
     * Decoded records kept: enough for the newest pages of every channel of a large organization
     * (2,000 channels × 50), since a record read again from disk is a new object, which also
     * voids its cached JSON (queries/message-json.ts). Only records read take room.
     */
    cacheSize = 100_000,
  ) {
    this.keys = realmKeys(realmId);
    this.cache = new RecordCache(cacheSize);
  }

  get(id: number): MessageRecord | undefined {
    const cached = this.cache.get(id);
    if (cached) return cached;
    const stored = this.db.get<MessageRecord>(this.keys.message(id));
    if (!stored) return undefined;
    const record = compactRecord(stored);
    // Kept from its second read on (see record-cache.ts): history scrolled through once is not.
    this.cache.admit(record);
    return record;
  }

  /** Writes a record (new or replaced). Records are replaced, never mutated. */
  save(record: MessageRecord, tx: Transaction): void {
    tx.put(this.keys.message(record.id), record);
    this.cache.set(compactRecord(record));
    // The store still holds the previous version (or none): read it again from there.
    tx.onRollback(() => this.cache.delete(record.id));
    this.watcher?.changed(record.id, tx);
  }

  delete(record: MessageRecord, tx: Transaction): void {
    tx.del(this.keys.message(record.id));
    this.cache.delete(record.id);
    this.watcher?.changed(record.id, tx);
  }

  /** Every stored record with an id above `id`, in id order, as on disk (not the cache). */
  async *recordsAfter(id: number): AsyncGenerator<MessageRecord> {
    const prefix = this.keys.message(0).slice(0, -ID_WIDTH);
    for await (const [, record] of this.db.scan<MessageRecord>({ gt: this.keys.message(id), lt: prefixEnd(prefix) })) yield record;
  }

  /** How many messages are stored (a walk over their keys). */
  async count(): Promise<number> {
    const prefix = this.keys.message(0).slice(0, -ID_WIDTH);
    let n = 0;
    for await (const _ of this.db.scanKeys({ gt: prefix, lt: prefixEnd(prefix) })) n++;
    return n;
  }

  /** The newest stored message id, or 0. */
  async newestId(): Promise<number> {
    const prefix = this.keys.message(0).slice(0, -ID_WIDTH);
    for await (const [key] of this.db.scan<unknown>({ gt: prefix, lt: prefixEnd(prefix) }, { reverse: true, limit: 1 })) return idOfKey(key);
    return 0;
  }

  // --- where a message is listed -------------------------------------------------------

  /** Adds the message to its channel, topic, conversation and sender ranges. */
  index(record: MessageRecord, topicKey: string | undefined, tx: Transaction): void {
    const { keys } = this;
    this.listChange(record, topicKey, tx, true);
    if (record.type === 'stream') {
      const channelId = record.channelId!;
      tx.put(keys.channelMessage(channelId, record.id), 0);
      tx.put(keys.topicMessage(channelId, topicKey!, record.id), 0);
      const known = this.newestByChannel.get(channelId);
      if (known !== undefined) {
        if (record.id > known) this.newestByChannel.set(channelId, record.id);
      } else {
        this.indexedFloor.set(channelId, Math.max(this.indexedFloor.get(channelId) ?? -1, record.id));
      }
      tx.onRollback(() => this.forgetChannelNewest(channelId));
    } else {
      tx.put(keys.conversationMessage(conversationOf(record), record.id), 0);
    }
    tx.put(keys.sentMessage(record.senderId, record.id), 0);
  }

  unindex(record: MessageRecord, topicKey: string | undefined, tx: Transaction): void {
    const { keys } = this;
    this.listChange(record, topicKey, tx, false);
    if (record.type === 'stream') {
      const channelId = record.channelId!;
      tx.del(keys.channelMessage(channelId, record.id));
      tx.del(keys.topicMessage(channelId, topicKey!, record.id));
      // Learned again from the store, once the removal is on disk (a reading before may still see it).
      this.forgetChannelNewest(channelId);
      tx.afterCommit.push(() => this.forgetChannelNewest(channelId));
    } else {
      tx.del(keys.conversationMessage(conversationOf(record), record.id));
    }
    tx.del(keys.sentMessage(record.senderId, record.id));
  }

  /**
   * The lists take a change when its batch is queued (undone on rollback), as memory shows it,
   * and again once durable (idempotent), for a list read from disk in between.
   */
  private listChange(record: MessageRecord, topicKey: string | undefined, tx: Transaction, added: boolean): void {
    const { keys, lists } = this;
    const prefixes = record.type === 'stream'
      ? [keys.channelMessagePrefix(record.channelId!), keys.topicMessagePrefix(record.channelId!, topicKey!), keys.sentMessagePrefix(record.senderId)]
      : [keys.conversationMessagePrefix(conversationOf(record)), keys.sentMessagePrefix(record.senderId)];
    const apply = (add: boolean) => prefixes.forEach((prefix) => (add ? lists.added(prefix, record.id) : lists.removed(prefix, record.id)));
    apply(added);
    tx.onRollback(() => apply(!added));
    tx.afterCommit.push(() => apply(added));
  }

  private forgetChannelNewest(channelId: number): void {
    this.newestByChannel.delete(channelId);
    this.indexedFloor.delete(channelId);
    this.channelGeneration.set(channelId, (this.channelGeneration.get(channelId) ?? 0) + 1);
  }

  /** Changes whenever the channel loses a message (deletion, move). */
  generationOf(channelId: number): number {
    return this.channelGeneration.get(channelId) ?? 0;
  }

  /**
   * A remembered newest delivered id inside a subscription's closed reception intervals, by the
   * intervals' array (a subscription's intervals are replaced, never changed, so the array is
   * the key, with no string to build on GET /users/me).
   */
  cachedNewestIn(channelId: number, intervals: readonly number[]): number | undefined {
    const entry = this.newestInIntervals.get(intervals);
    return entry && entry.channelId === channelId && entry.generation === this.generationOf(channelId) ? entry.value : undefined;
  }

  cacheNewestIn(channelId: number, intervals: readonly number[], value: number, generation: number): void {
    if (generation !== this.generationOf(channelId)) return;
    this.newestInIntervals.set(intervals, { channelId, value, generation });
  }

  /** The newest message id in a channel, or -1. */
  newestInChannel(channelId: number): number | Promise<number> {
    const known = this.newestByChannel.get(channelId);
    if (known !== undefined) return known;
    const generation = this.channelGeneration.get(channelId) ?? 0;
    const reading = this.newest({ of: 'channel', channelId }).then((id) => {
      const newest = Math.max(id ?? -1, this.indexedFloor.get(channelId) ?? -1);
      if ((this.channelGeneration.get(channelId) ?? 0) === generation) {
        this.newestByChannel.set(channelId, newest);
        this.indexedFloor.delete(channelId);
      }
      return newest;
    });
    // A send starts this reading only to warm the cache and does not wait for it: a failure
    // (the store closing) must not become an unhandled rejection. Callers that wait still see it.
    reading.catch(() => {});
    return reading;
  }

  /** The topic's record; within a write `tx`, as its earlier steps left it. */
  topic(channelId: number, topicKey: string, tx?: Transaction): TopicRecord | undefined {
    const key = this.keys.topic(channelId, topicKey);
    const written = tx?.lastWrite(key);
    return written ? (written.value as TopicRecord | undefined) : this.db.get<TopicRecord>(key);
  }

  /** Written once per write (its last value): a turn of deliveries to one topic changes it per message. */
  saveTopic(channelId: number, topicKey: string, topic: TopicRecord | undefined, tx: Transaction): void {
    tx.writeLast(this.keys.topic(channelId, topicKey), topic);
  }

  async topics(channelId: number): Promise<TopicRecord[]> {
    const prefix = this.keys.topicPrefix(channelId);
    const found: TopicRecord[] = [];
    for await (const [, topic] of this.db.scan<TopicRecord>(prefixRange(prefix))) found.push(topic);
    return found;
  }

  // --- per-user flags ------------------------------------------------------------------

  /** The user's per-user row of a message (a flags bitfield), or undefined when there is none. */
  row(userId: number, messageId: number): number | undefined {
    // A row a write is changing is read from the store until the book shows the change.
    if (!this.rowBook.isHeld(userId, messageId)) {
      const rows = this.rowBook.rowsOf(userId);
      if (rows) return rows.get(messageId);
    }
    return this.db.get<number>(this.keys.userMessage(userId, messageId));
  }

  /** Every row of a user, as on disk (a book being read). */
  private async *allRows(userId: number): AsyncGenerator<[number, number]> {
    for await (const [key, flags] of this.db.scan<number>(prefixRange(this.keys.userMessagePrefix(userId)))) yield [idOfKey(key), flags];
  }

  /** The newest message id the user holds a row of, or -1. */
  newestRowId(userId: number): number | Promise<number> {
    const known = this.newestRowByUser.get(userId);
    if (known !== undefined) return known;
    return this.newestExisting({ of: 'rows', userId }).then((id) => {
      // A write may have taught us a newer id while the range was read.
      const newest = Math.max(id ?? -1, this.newestRowByUser.get(userId) ?? -1);
      this.newestRowByUser.set(userId, newest);
      return newest;
    });
  }

  /** Writes a user's row and keeps the unread, starred and mentioned indexes in step. */
  setFlags(userId: number, messageId: number, before: number | undefined, after: number, tx: Transaction): void {
    const { keys } = this;
    if (before === after) return;
    if (before === undefined) {
      const known = this.newestRowByUser.get(userId);
      if (known !== undefined && messageId > known) {
        this.newestRowByUser.set(userId, messageId);
        tx.onRollback(() => this.newestRowByUser.delete(userId));
      }
    }
    tx.put(keys.userMessage(userId, messageId), after);
    this.rowBook.track(userId, messageId, after, tx);
    const was = before ?? Flag.read;
    if ((was ^ after) & Flag.read) {
      if (after & Flag.read) tx.del(keys.unread(userId, messageId));
      else tx.put(keys.unread(userId, messageId), 0);
    }
    const wasStarred = (before ?? 0) & Flag.starred;
    if (wasStarred !== (after & Flag.starred)) {
      if (after & Flag.starred) tx.put(keys.starred(userId, messageId), 0);
      else tx.del(keys.starred(userId, messageId));
    }
    const wasMentioned = ((before ?? 0) & MENTION_BITS) !== 0;
    const isMentioned = (after & MENTION_BITS) !== 0;
    if (wasMentioned !== isMentioned) {
      if (isMentioned) tx.put(keys.mention(userId, messageId), 0);
      else tx.del(keys.mention(userId, messageId));
    }
  }

  /** Removes every trace of a user's row of a message. */
  dropFlags(userId: number, messageId: number, tx: Transaction): void {
    const { keys } = this;
    // The newest may be gone: learn it again from the store next time.
    if (this.newestRowByUser.get(userId) === messageId) this.newestRowByUser.delete(userId);
    tx.onRollback(() => this.newestRowByUser.delete(userId));
    tx.del(keys.userMessage(userId, messageId));
    this.rowBook.track(userId, messageId, undefined, tx);
    tx.del(keys.unread(userId, messageId));
    tx.del(keys.starred(userId, messageId));
    tx.del(keys.mention(userId, messageId));
  }

  // --- walking ranges --------------------------------------------------------------------

  prefixOf(range: Exclude<MessageRange, { of: 'union' }>): string {
    const { keys } = this;
    switch (range.of) {
      case 'topic': return keys.topicMessagePrefix(range.channelId, range.topicKey);
      case 'channel': case 'channel-span': return keys.channelMessagePrefix(range.channelId);
      case 'conversation': return keys.conversationMessagePrefix(range.conversation);
      case 'rows': return keys.userMessagePrefix(range.userId);
      case 'unread': return keys.unreadPrefix(range.userId);
      case 'starred': return keys.starredPrefix(range.userId);
      case 'mentioned': return keys.mentionPrefix(range.userId);
      case 'sender': return keys.sentMessagePrefix(range.userId);
      case 'all': return keys.message(0).slice(0, -ID_WIDTH);
    }
  }

  /** Message ids of a range, from an anchor in one direction. */
  ids(range: MessageRange, options: WalkOptions): AsyncGenerator<number> {
    if (range.of === 'union') return mergeIds(range.ranges.map((part) => this.ids(part, options)), options.reverse);
    const span = range.of === 'channel-span' ? range : undefined;
    return this.idsWithPrefix(this.prefixOf(range), options, span?.from ?? 0, span?.to ?? Infinity, isListedRange(range), range.of === 'unread' ? range.userId : undefined);
  }

  /** Message ids in [lowest, below) of a range whose keys end with the id, from an anchor in one direction. */
  private async *idsWithPrefix(prefix: string, options: WalkOptions, lowest: number, below: number, listed: boolean, unreadOf: number | undefined): AsyncGenerator<number> {
    const [lo, hi] = walkBounds(options, lowest, below);
    if (lo > hi || hi < 0) return;
    const inMemory = listed ? this.lists.walk(prefix, lo, hi, options.reverse) : unreadOf !== undefined ? this.rowBook.unreadIds(unreadOf, 256, options.reverse) : undefined;
    if (inMemory) {
      for (const id of inMemory) if (id >= lo && id <= hi) yield id;
      return;
    }
    const range = { gte: prefix + pad(Math.max(lo, 0)), lte: prefix + pad(hi) };
    const firstPage = options.expected === undefined ? undefined : options.expected + 1;
    for await (const key of this.db.scanKeys(range, { reverse: options.reverse, firstPage })) yield idOfKey(key);
  }

  /** Every id of a prefix, in order (an in-memory list being read). */
  private async *allIds(prefix: string): AsyncGenerator<number> {
    for await (const key of this.db.scanKeys({ gte: prefix + pad(0), lte: prefix + pad(MAX_ID - 1) }, { firstPage: 1024 })) yield idOfKey(key);
  }

  /** The newest id in a range whose message exists (a row may outlive its message, see docs/architecture.md). */
  private async newestExisting(range: MessageRange): Promise<number | undefined> {
    for await (const id of this.ids(range, { reverse: true, expected: 1 })) if (this.get(id)) return id;
    return undefined;
  }

  /** The newest id in a range other than `except`, or undefined. */
  async newest(range: MessageRange, except?: ReadonlySet<number>): Promise<number | undefined> {
    for await (const id of this.ids(range, { reverse: true })) if (!except?.has(id)) return id;
    return undefined;
  }
}


export function conversationOf(record: MessageRecord): string {
  return record.dmUserIds!.join(',');
}
