/**
 * Messages in the store: the records, the per-user flag rows, and the index ranges a query
 * walks (a user's messages, unread, starred, mentioned; a channel's; a topic's; a
 * conversation's; a sender's). Recently used records are kept decoded in a bounded cache.
 */
import { Flag, MENTION_BITS, type MessageRecord } from '../domain/messages.js';
import type { Database } from './database.js';
import { pad, prefixEnd, prefixRange, realmKeys, type RealmKeys } from './keys.js';
import type { Transaction } from './transaction.js';

/** A channel's topic: its display name (latest casing), newest message and participants. */
export interface TopicRecord {
  name: string;
  maxId: number;
  /** Senders and reactors: the participants that topic wildcard mentions count. */
  participants: number[];
}

const ID_WIDTH = 12;

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
  | { of: 'conversation'; conversation: string }
  /** A user's own ranges: every message they hold a record of, unread, starred, mentioning them. */
  | { of: 'user' | 'unread' | 'starred' | 'mentioned'; userId: number }
  | { of: 'sender'; userId: number }
  /** Every message of the organization. */
  | { of: 'all' };

export class MessageStore {
  private readonly cache = new Map<number, MessageRecord>();
  /** Each user's newest message id, learned on first use and kept current by setFlags/dropFlags. */
  private readonly newestByUser = new Map<number, number>();

  private readonly keys: RealmKeys;

  constructor(
    readonly db: Database,
    realmId: number,
    private readonly cacheSize = 20000,
  ) {
    this.keys = realmKeys(realmId);
  }

  get(id: number): MessageRecord | undefined {
    const cached = this.cache.get(id);
    if (cached) {
      // Refresh its place: the Map's order is the eviction order.
      this.cache.delete(id);
      this.cache.set(id, cached);
      return cached;
    }
    const record = this.db.get<MessageRecord>(this.keys.message(id));
    if (record) this.remember(record);
    return record;
  }

  /** Writes a record (new or replaced). Records are replaced, never mutated. */
  save(record: MessageRecord, tx: Transaction): void {
    tx.put(this.keys.message(record.id), record);
    this.remember(record);
    // The store still holds the previous version (or none): read it again from there.
    tx.onRollback(() => this.cache.delete(record.id));
  }

  delete(record: MessageRecord, tx: Transaction): void {
    tx.del(this.keys.message(record.id));
    this.cache.delete(record.id);
  }

  private remember(record: MessageRecord): void {
    this.cache.delete(record.id);
    this.cache.set(record.id, record);
    if (this.cache.size > this.cacheSize) this.cache.delete(this.cache.keys().next().value!);
  }

  // --- where a message is listed -------------------------------------------------------

  /** Adds the message to its channel, topic, conversation and sender ranges. */
  index(record: MessageRecord, topicKey: string | undefined, tx: Transaction): void {
    const { keys } = this;
    if (record.type === 'stream') {
      tx.put(keys.channelMessage(record.channelId!, record.id), 0);
      tx.put(keys.topicMessage(record.channelId!, topicKey!, record.id), 0);
    } else {
      tx.put(keys.conversationMessage(conversationOf(record), record.id), 0);
    }
    tx.put(keys.sentMessage(record.senderId, record.id), 0);
  }

  unindex(record: MessageRecord, topicKey: string | undefined, tx: Transaction): void {
    const { keys } = this;
    if (record.type === 'stream') {
      tx.del(keys.channelMessage(record.channelId!, record.id));
      tx.del(keys.topicMessage(record.channelId!, topicKey!, record.id));
    } else {
      tx.del(keys.conversationMessage(conversationOf(record), record.id));
    }
    tx.del(keys.sentMessage(record.senderId, record.id));
  }

  topic(channelId: number, topicKey: string): TopicRecord | undefined {
    return this.db.get<TopicRecord>(this.keys.topic(channelId, topicKey));
  }

  saveTopic(channelId: number, topicKey: string, topic: TopicRecord | undefined, tx: Transaction): void {
    if (topic) tx.put(this.keys.topic(channelId, topicKey), topic);
    else tx.del(this.keys.topic(channelId, topicKey));
  }

  async topics(channelId: number): Promise<TopicRecord[]> {
    const prefix = this.keys.topicPrefix(channelId);
    const found: TopicRecord[] = [];
    for await (const [, topic] of this.db.scan<TopicRecord>(prefixRange(prefix))) found.push(topic);
    return found;
  }

  // --- per-user flags ------------------------------------------------------------------

  /** The user's flags for a message, or undefined when the user has no record of it. */
  flags(userId: number, messageId: number): number | undefined {
    return this.db.get<number>(this.keys.userMessage(userId, messageId));
  }

  /** The newest message id the user holds a record of, or -1 (GET /users/me reads it on every call). */
  newestMessageId(userId: number): number | Promise<number> {
    const known = this.newestByUser.get(userId);
    if (known !== undefined) return known;
    return this.newest({ of: 'user', userId }).then((id) => {
      // A write may have taught us a newer id while the range was read.
      const newest = Math.max(id ?? -1, this.newestByUser.get(userId) ?? -1);
      this.newestByUser.set(userId, newest);
      return newest;
    });
  }

  /** Writes a user's flags and keeps the unread, starred and mentioned ranges in step. */
  setFlags(userId: number, messageId: number, before: number | undefined, after: number, tx: Transaction): void {
    const { keys } = this;
    if (before === after) return;
    if (before === undefined) {
      const known = this.newestByUser.get(userId);
      if (known !== undefined && messageId > known) {
        this.newestByUser.set(userId, messageId);
        tx.onRollback(() => this.newestByUser.delete(userId));
      }
    }
    tx.put(keys.userMessage(userId, messageId), after);
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

  /** Removes every trace of a user's record of a message. */
  dropFlags(userId: number, messageId: number, tx: Transaction): void {
    const { keys } = this;
    // The newest may be gone: learn it again from the store next time.
    if (this.newestByUser.get(userId) === messageId) this.newestByUser.delete(userId);
    tx.onRollback(() => this.newestByUser.delete(userId));
    tx.del(keys.userMessage(userId, messageId));
    tx.del(keys.unread(userId, messageId));
    tx.del(keys.starred(userId, messageId));
    tx.del(keys.mention(userId, messageId));
  }

  // --- walking ranges --------------------------------------------------------------------

  private prefixOf(range: MessageRange): string {
    const { keys } = this;
    switch (range.of) {
      case 'topic': return keys.topicMessagePrefix(range.channelId, range.topicKey);
      case 'channel': return keys.channelMessagePrefix(range.channelId);
      case 'conversation': return keys.conversationMessagePrefix(range.conversation);
      case 'user': return keys.userMessagePrefix(range.userId);
      case 'unread': return keys.unreadPrefix(range.userId);
      case 'starred': return keys.starredPrefix(range.userId);
      case 'mentioned': return keys.mentionPrefix(range.userId);
      case 'sender': return keys.sentMessagePrefix(range.userId);
      case 'all': return keys.message(0).slice(0, -ID_WIDTH);
    }
  }

  /** Message ids of a range, from an anchor in one direction. */
  ids(range: MessageRange, options: WalkOptions): AsyncGenerator<number> {
    return this.idsWithPrefix(this.prefixOf(range), options);
  }

  /** Message ids in a range whose keys end with the id, from an anchor in one direction. */
  private async *idsWithPrefix(prefix: string, options: WalkOptions): AsyncGenerator<number> {
    const range: { gte?: string; gt?: string; lte?: string; lt?: string } = {};
    if (options.reverse) {
      range.gte = prefix;
      if (options.from === undefined) range.lt = prefixEnd(prefix);
      else if (options.inclusive) range.lte = prefix + pad(options.from);
      else range.lt = prefix + pad(options.from);
    } else {
      range.lt = prefixEnd(prefix);
      if (options.from === undefined) range.gte = prefix;
      else if (options.inclusive) range.gte = prefix + pad(options.from);
      else range.gt = prefix + pad(options.from);
    }
    const firstPage = options.expected === undefined ? undefined : options.expected + 1;
    for await (const key of this.db.scanKeys(range, { reverse: options.reverse, firstPage })) yield idOfKey(key);
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
