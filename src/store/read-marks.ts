/**
 * Read marks (see "Per-user message state" in docs/architecture.md): per user and channel, and
 * per user and topic, the id through which delivered messages without a row are read, and the
 * organization's cut-over id below which messages keep a row for every holder.
 */
import type { Database } from './database.js';
import { prefixRange, realmKeys, type RealmKeys } from './keys.js';
import { idOfKey } from './messages.js';
import type { Transaction } from './transaction.js';

interface CutOver {
  explicitBelow: number;
}

export class ReadMarks {
  private readonly keys: RealmKeys;
  /** Read marks by `${userId}:${channelId}`, learned on first use. */
  private readonly marks = new Map<string, number>();
  /** Topic read marks by `${userId}:${channelId}:${topicKey}`, learned on first use. */
  private readonly topicMarks = new Map<string, number>();
  /**
   * The `${userId}:${channelId}` pairs with at least one topic mark, read at start (one key per
   * topic someone marked read, not per message). Most pairs have none: their messages' flags then
   * need no topic lookup at all, rather than a store read per topic met.
   */
  private readonly withTopicMarks = new Set<string>();
  private cut: CutOver | undefined;

  constructor(
    readonly db: Database,
    realmId: number,
  ) {
    this.keys = realmKeys(realmId);
    this.cut = db.get<CutOver>(this.keys.readStateCutOver);
  }

  /** Reads which (user, channel) pairs have topic marks. */
  async load(): Promise<void> {
    const prefix = this.keys.topicReadMarksPrefix;
    for await (const key of this.db.scanKeys(prefixRange(prefix))) {
      const channelId = Number(key.slice(prefix.length, key.indexOf('!', prefix.length)));
      this.withTopicMarks.add(`${idOfKey(key)}:${channelId}`);
    }
  }

  /** The cut-over id, or undefined before the cut-over (see actions/read-state-cut-over.ts). */
  get cutOver(): number | undefined {
    return this.cut?.explicitBelow;
  }

  /** Channel messages below this id keep a per-user row for every holder (written before the cut-over). */
  get explicitBelow(): number {
    return this.cut?.explicitBelow ?? Infinity;
  }

  setCutOver(explicitBelow: number, tx: Transaction): void {
    const before = this.cut;
    this.cut = { explicitBelow };
    tx.put(this.keys.readStateCutOver, this.cut);
    tx.onRollback(() => (this.cut = before));
  }

  /** The id through which the user has read the channel's delivered messages without a row (0: none). */
  mark(userId: number, channelId: number): number {
    const key = `${userId}:${channelId}`;
    let mark = this.marks.get(key);
    if (mark === undefined) {
      mark = this.db.get<number>(this.keys.readMark(userId, channelId)) ?? 0;
      this.marks.set(key, mark);
    }
    return mark;
  }

  /** Whether the user has any topic mark in the channel (else every topic's is 0). */
  hasTopicMarks(userId: number, channelId: number): boolean {
    return this.withTopicMarks.has(`${userId}:${channelId}`);
  }

  /** The id through which the user has read the topic's delivered messages without a row (0: none). */
  topicMark(userId: number, channelId: number, topicKey: string): number {
    if (!this.withTopicMarks.has(`${userId}:${channelId}`)) return 0;
    const key = `${userId}:${channelId}:${topicKey}`;
    let mark = this.topicMarks.get(key);
    if (mark === undefined) {
      mark = this.db.get<number>(this.keys.topicReadMark(channelId, topicKey, userId)) ?? 0;
      this.topicMarks.set(key, mark);
    }
    return mark;
  }

  setTopicMark(userId: number, channelId: number, topicKey: string, mark: number, tx: Transaction): void {
    const before = this.topicMark(userId, channelId, topicKey);
    if (before === mark) return;
    const key = `${userId}:${channelId}:${topicKey}`;
    const pair = `${userId}:${channelId}`;
    const first = !this.withTopicMarks.has(pair);
    this.withTopicMarks.add(pair);
    this.topicMarks.set(key, mark);
    tx.put(this.keys.topicReadMark(channelId, topicKey, userId), mark);
    tx.onRollback(() => {
      this.topicMarks.set(key, before);
      if (first) this.withTopicMarks.delete(pair);
    });
  }

  /** The users with a read mark on the topic. */
  async topicMarkUsers(channelId: number, topicKey: string): Promise<number[]> {
    const users: number[] = [];
    for await (const key of this.db.scanKeys(prefixRange(this.keys.topicReadMarkPrefix(channelId, topicKey)))) users.push(idOfKey(key));
    return users;
  }

  setMark(userId: number, channelId: number, mark: number, tx: Transaction): void {
    const before = this.mark(userId, channelId);
    if (before === mark) return;
    const key = `${userId}:${channelId}`;
    this.marks.set(key, mark);
    tx.put(this.keys.readMark(userId, channelId), mark);
    tx.onRollback(() => this.marks.set(key, before));
  }
}
