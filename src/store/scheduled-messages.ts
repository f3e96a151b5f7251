/**
 * Scheduled messages and reminders of one organization. All of them are held in memory (a user
 * has a few; delivery must not wait on a read): a record book, loaded once at start, each change
 * written in the caller's transaction and undone in memory if that transaction rolls back.
 */
import type { ScheduledMessageRecord } from '../domain/scheduled-messages.js';
import { realmKeys } from './keys.js';
import { MultiIndex, RecordBook } from './record-book.js';
import type { Transaction } from './transaction.js';
import { WakeIndex } from './wake-index.js';

export class ScheduledMessages extends RecordBook<number, ScheduledMessageRecord> {
  /** By sender, for the owner's lists. */
  private readonly senders: MultiIndex<ScheduledMessageRecord>;

  constructor(private readonly realmId: number) {
    const keys = realmKeys(realmId);
    super({ prefix: keys.scheduledMessagePrefix, key: (record) => keys.scheduledMessage(record.id), id: (record) => record.id });
    this.senders = this.indexBy(new MultiIndex((record: ScheduledMessageRecord) => [record.senderId]));
  }

  override save(record: ScheduledMessageRecord, tx: Transaction): void {
    super.save(record, tx);
    // A waiting delivery wakes its organization after a restart (store/wake-index.ts).
    if (!record.failed) WakeIndex.mark(this.realmId, tx);
  }

  /** A sender's records, in no particular order. */
  ofSender(senderId: number): ScheduledMessageRecord[] {
    return this.senders.get(senderId);
  }
}
