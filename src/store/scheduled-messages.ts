/**
 * Scheduled messages and reminders of one organization. All of them are held in memory (a user
 * has a few; delivery must not wait on a read) and loaded once at start; each change goes to the
 * store in the caller's transaction and is undone in memory if that transaction rolls back.
 */
import type { ScheduledMessageRecord } from '../domain/scheduled-messages.js';
import type { Database } from './database.js';
import { prefixRange, realmKeys, type RealmKeys } from './keys.js';
import type { Transaction } from './transaction.js';
import { WakeIndex } from './wake-index.js';

export class ScheduledMessages {
  private readonly keys: RealmKeys;
  private readonly realmId: number;
  private readonly records = new Map<number, ScheduledMessageRecord>();
  /** Ids by sender, for the owner's lists. */
  private readonly bySender = new Map<number, Set<number>>();

  constructor(
    private readonly db: Database,
    realmId: number,
  ) {
    this.keys = realmKeys(realmId);
    this.realmId = realmId;
  }

  /** Reads every record from the store; called once before the server serves. */
  async load(): Promise<void> {
    for await (const [, record] of this.db.scan<ScheduledMessageRecord>(prefixRange(this.keys.scheduledMessagePrefix))) this.remember(record);
  }

  get(id: number): ScheduledMessageRecord | undefined {
    return this.records.get(id);
  }

  all(): IterableIterator<ScheduledMessageRecord> {
    return this.records.values();
  }

  /** A sender's records, in no particular order. */
  ofSender(senderId: number): ScheduledMessageRecord[] {
    return [...(this.bySender.get(senderId) ?? [])].map((id) => this.records.get(id)!);
  }

  put(record: ScheduledMessageRecord, tx: Transaction): void {
    const before = this.records.get(record.id);
    this.remember(record);
    tx.put(this.keys.scheduledMessage(record.id), record);
    // A waiting delivery wakes its organization after a restart (store/wake-index.ts).
    if (!record.failed) WakeIndex.mark(this.realmId, tx);
    tx.onRollback(() => (before ? this.remember(before) : this.forget(record.id)));
  }

  delete(id: number, tx: Transaction): void {
    const before = this.records.get(id);
    if (!before) return;
    this.forget(id);
    tx.del(this.keys.scheduledMessage(id));
    tx.onRollback(() => this.remember(before));
  }

  private remember(record: ScheduledMessageRecord): void {
    this.records.set(record.id, record);
    let ids = this.bySender.get(record.senderId);
    if (!ids) this.bySender.set(record.senderId, (ids = new Set()));
    ids.add(record.id);
  }

  private forget(id: number): void {
    const record = this.records.get(id);
    if (!record) return;
    this.records.delete(id);
    this.bySender.get(record.senderId)?.delete(id);
  }
}
