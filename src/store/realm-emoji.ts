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

  constructor(
    private readonly db: Database,
    realmId: number,
  ) {
    this.keys = realmKeys(realmId);
  }

  async load(): Promise<void> {
    for await (const [, record] of this.db.scan<RealmEmojiRecord>(prefixRange(this.keys.realmEmojiPrefix))) this.records.set(record.id, record);
  }

  /** Every custom emoji, deactivated ones too, by id. */
  all(): RealmEmojiRecord[] {
    return [...this.records.values()].sort((a, b) => a.id - b.id);
  }

  activeByName(name: string): RealmEmojiRecord | undefined {
    for (const record of this.records.values()) if (record.name === name && !record.deactivated) return record;
    return undefined;
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
    this.records.set(record.id, record);
    tx.put(this.keys.realmEmoji(record.id), record);
    tx.onRollback(() => (before ? this.records.set(record.id, before) : this.records.delete(record.id)));
  }
}
