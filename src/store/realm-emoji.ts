/**
 * Custom emoji of one organization, all in memory (a few hundred at most; every message render
 * looks them up): a record book, loaded once at start, each change written in the caller's
 * transaction and undone in memory if that transaction rolls back.
 */
import type { RealmEmojiLookup, RealmEmojiRecord } from '../domain/realm-emoji.js';
import { realmKeys } from './keys.js';
import { RecordBook, UniqueIndex } from './record-book.js';

export class RealmEmojiBook extends RecordBook<number, RealmEmojiRecord> implements RealmEmojiLookup {
  /** The active emoji by name (names are unique among active ones): every `:name:` rendered asks. */
  private readonly active: UniqueIndex<RealmEmojiRecord>;

  constructor(realmId: number) {
    const keys = realmKeys(realmId);
    super({ prefix: keys.realmEmojiPrefix, key: (record) => keys.realmEmoji(record.id), id: (record) => record.id });
    this.active = this.indexBy(new UniqueIndex((record: RealmEmojiRecord) => (record.deactivated ? [] : [record.name])));
  }

  activeByName(name: string): RealmEmojiRecord | undefined {
    return this.active.get(name);
  }

  byCode(code: string): RealmEmojiRecord | undefined {
    return /^\d{1,15}$/.test(code) ? this.get(Number(code)) : undefined;
  }

  /** Whether some custom emoji's image (or still) is stored under this hash. */
  usesSha(sha: string): boolean {
    for (const record of this.all()) if (record.sha256 === sha || record.still?.sha256 === sha) return true;
    return false;
  }

  hashes(): Set<string> {
    const found = new Set<string>();
    for (const record of this.all()) {
      found.add(record.sha256);
      if (record.still) found.add(record.still.sha256);
    }
    return found;
  }

  /** The emoji whose image (or still) has this file name in its URL. */
  byFileName(fileName: string, still: boolean): RealmEmojiRecord | undefined {
    for (const record of this.all()) if ((still ? record.still?.fileName : record.fileName) === fileName) return record;
    return undefined;
  }
}
