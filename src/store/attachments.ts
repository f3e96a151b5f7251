/**
 * Uploaded files' records of one organization, all in memory (loaded once at start: their
 * number grows with uploads, not messages, and file access must not wait on a read), indexed
 * by path id, owner and linking message. Each change goes to the store in the caller's
 * transaction and is undone in memory if that transaction rolls back.
 */
import type { AttachmentRecord } from '../domain/uploads.js';
import type { Database } from './database.js';
import { prefixRange, realmKeys, type RealmKeys } from './keys.js';
import type { Transaction } from './transaction.js';

export class Attachments {
  private readonly keys: RealmKeys;
  private readonly records = new Map<number, AttachmentRecord>();
  private readonly byPath = new Map<string, number>();
  private readonly byOwner = new Map<number, Set<number>>();
  private readonly byMessage = new Map<number, Set<number>>();
  private readonly shaUses = new Map<string, number>();
  private bytes = 0;

  constructor(
    private readonly db: Database,
    realmId: number,
  ) {
    this.keys = realmKeys(realmId);
  }

  async load(): Promise<void> {
    for await (const [, record] of this.db.scan<AttachmentRecord>(prefixRange(this.keys.attachmentPrefix))) this.remember(record);
  }

  get(id: number): AttachmentRecord | undefined {
    return this.records.get(id);
  }

  byPathId(pathId: string): AttachmentRecord | undefined {
    const id = this.byPath.get(pathId);
    return id === undefined ? undefined : this.records.get(id);
  }

  ofOwner(ownerId: number): AttachmentRecord[] {
    return [...(this.byOwner.get(ownerId) ?? [])].map((id) => this.records.get(id)!);
  }

  /** The attachments a message links. */
  ofMessage(messageId: number): AttachmentRecord[] {
    return [...(this.byMessage.get(messageId) ?? [])].map((id) => this.records.get(id)!);
  }

  /** Whether some record names these bytes. */
  usesSha(sha: string): boolean {
    return this.shaUses.has(sha);
  }

  /** Every stored hash named by a record (the start-up sweep keeps these). */
  hashes(): Set<string> {
    return new Set(this.shaUses.keys());
  }

  /** The organization's upload space used: the sizes of every record, as Zulip counts them. */
  get usedBytes(): number {
    return this.bytes;
  }

  put(record: AttachmentRecord, tx: Transaction): void {
    const before = this.records.get(record.id);
    if (before) this.forget(before.id);
    this.remember(record);
    tx.put(this.keys.attachment(record.id), record);
    tx.onRollback(() => {
      this.forget(record.id);
      if (before) this.remember(before);
    });
  }

  delete(id: number, tx: Transaction): void {
    const before = this.records.get(id);
    if (!before) return;
    this.forget(id);
    tx.del(this.keys.attachment(id));
    tx.onRollback(() => this.remember(before));
  }

  private remember(record: AttachmentRecord): void {
    this.records.set(record.id, record);
    this.byPath.set(record.pathId, record.id);
    let owned = this.byOwner.get(record.ownerId);
    if (!owned) this.byOwner.set(record.ownerId, (owned = new Set()));
    owned.add(record.id);
    for (const messageId of record.messageIds) {
      let linked = this.byMessage.get(messageId);
      if (!linked) this.byMessage.set(messageId, (linked = new Set()));
      linked.add(record.id);
    }
    this.shaUses.set(record.sha256, (this.shaUses.get(record.sha256) ?? 0) + 1);
    this.bytes += record.size;
  }

  private forget(id: number): void {
    const record = this.records.get(id);
    if (!record) return;
    this.records.delete(id);
    this.byPath.delete(record.pathId);
    this.byOwner.get(record.ownerId)?.delete(id);
    for (const messageId of record.messageIds) {
      const linked = this.byMessage.get(messageId);
      linked?.delete(id);
      if (linked?.size === 0) this.byMessage.delete(messageId);
    }
    const uses = this.shaUses.get(record.sha256)! - 1;
    if (uses === 0) this.shaUses.delete(record.sha256);
    else this.shaUses.set(record.sha256, uses);
    this.bytes -= record.size;
  }
}
