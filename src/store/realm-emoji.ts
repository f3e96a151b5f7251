/**
 * Custom emoji of one organization, all in memory (a few hundred at most; every message render
 * looks them up), loaded once at start; each change goes to the store in the caller's
 * transaction and is undone in memory if that transaction rolls back.
 */
import type { RealmEmojiLookup, RealmEmojiRecord } from '../domain/realm-emoji.js';
import type { Database } from './database.js';
import { prefixRange, realmKeys, type RealmKeys } from './keys.js';
import type { Transaction } from './transaction.js';

export class RealmEmojiBook implements RealmEmojiLookup {
  private readonly keys: RealmKeys;
  private readonly records = new Map<number, RealmEmojiRecord>();
  /** The active emoji by name (names are unique among active ones): every `:name:` rendered asks. */
  private readonly active = new Map<string, RealmEmojiRecord>();

  constructor(
    private readonly db: Database,
    realmId: number,
  ) {
    this.keys = realmKeys(realmId);
  }

  async load(): Promise<void> {
    for await (const [, record] of this.db.scan<RealmEmojiRecord>(prefixRange(this.keys.realmEmojiPrefix))) this.set(record);
  }

  private set(record: RealmEmojiRecord): void {
    const before = this.records.get(record.id);
    if (before && this.active.get(before.name) === before) this.active.delete(before.name);
    this.records.set(record.id, record);
    if (!record.deactivated) this.active.set(record.name, record);
  }

  private unset(id: number): void {
    const record = this.records.get(id);
    if (record && this.active.get(record.name) === record) this.active.delete(record.name);
    this.records.delete(id);
  }

  /** Every custom emoji, deactivated ones too, by id. */
  all(): RealmEmojiRecord[] {
    return [...this.records.values()].sort((a, b) => a.id - b.id);
  }

  activeByName(name: string): RealmEmojiRecord | undefined {
    return this.active.get(name);
  }

  byCode(code: string): RealmEmojiRecord | undefined {
    return /^\d{1,15}$/.test(code) ? this.records.get(Number(code)) : undefined;
  }

  /** Whether some custom emoji's image (or still) is stored under this hash. */
  usesSha(sha: string): boolean {
    for (const record of this.records.values()) if (record.sha256 === sha || record.still?.sha256 === sha) return true;
    return false;
  }

  hashes(): Set<string> {
    const found = new Set<string>();
    for (const record of this.records.values()) {
      found.add(record.sha256);
      if (record.still) found.add(record.still.sha256);
    }
    return found;
  }

  /** The emoji whose image (or still) has this file name in its URL. */
  byFileName(fileName: string, still: boolean): RealmEmojiRecord | undefined {
    for (const record of this.records.values()) if ((still ? record.still?.fileName : record.fileName) === fileName) return record;
    return undefined;
  }

  put(record: RealmEmojiRecord, tx: Transaction): void {
    const before = this.records.get(record.id);
    this.set(record);
    tx.put(this.keys.realmEmoji(record.id), record);
    tx.onRollback(() => (before ? this.set(before) : this.unset(record.id)));
  }
}
