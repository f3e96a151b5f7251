/**
 * Uploaded files' records of one organization, all in memory (their number grows with uploads,
 * not messages, and file access must not wait on a read), indexed by path id, owner and linking
 * message: a record book, loaded once at start, each change written in the caller's transaction
 * and undone in memory if that transaction rolls back.
 */
import type { AttachmentRecord } from '../domain/uploads.js';
import { realmKeys } from './keys.js';
import { MultiIndex, RecordBook, UniqueIndex, type BookIndex } from './record-book.js';

/** The stored hashes the records name (with how many name each), and the bytes they count. */
class Usage implements BookIndex<AttachmentRecord> {
  readonly shaUses = new Map<string, number>();
  bytes = 0;

  add(record: AttachmentRecord): void {
    this.shaUses.set(record.sha256, (this.shaUses.get(record.sha256) ?? 0) + 1);
    this.bytes += record.size;
  }

  remove(record: AttachmentRecord): void {
    const uses = this.shaUses.get(record.sha256)! - 1;
    if (uses === 0) this.shaUses.delete(record.sha256);
    else this.shaUses.set(record.sha256, uses);
    this.bytes -= record.size;
  }
}

export class Attachments extends RecordBook<number, AttachmentRecord> {
  private readonly paths: UniqueIndex<AttachmentRecord>;
  private readonly owners: MultiIndex<AttachmentRecord>;
  private readonly messages: MultiIndex<AttachmentRecord>;
  private readonly usage: Usage;

  constructor(realmId: number) {
    const keys = realmKeys(realmId);
    super({ prefix: keys.attachmentPrefix, key: (record) => keys.attachment(record.id), id: (record) => record.id });
    this.paths = this.indexBy(new UniqueIndex((record: AttachmentRecord) => [record.pathId]));
    this.owners = this.indexBy(new MultiIndex((record: AttachmentRecord) => [record.ownerId]));
    this.messages = this.indexBy(new MultiIndex((record: AttachmentRecord) => record.messageIds));
    this.usage = this.indexBy(new Usage());
  }

  byPathId(pathId: string): AttachmentRecord | undefined {
    return this.paths.get(pathId);
  }

  ofOwner(ownerId: number): AttachmentRecord[] {
    return this.owners.get(ownerId);
  }

  /** The attachments a message links. */
  ofMessage(messageId: number): AttachmentRecord[] {
    return this.messages.get(messageId);
  }

  /** Whether some record names these bytes. */
  usesSha(sha: string): boolean {
    return this.usage.shaUses.has(sha);
  }

  /** Every stored hash named by a record (the start-up sweep keeps these). */
  hashes(): Set<string> {
    return new Set(this.usage.shaUses.keys());
  }

  /** The organization's upload space used: the sizes of every record, as Zulip counts them. */
  get usedBytes(): number {
    return this.usage.bytes;
  }
}
