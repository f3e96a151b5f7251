/**
 * The event log and the queue descriptors of one organization: where events wait, in the
 * batch of the change that caused them, until every queue that needs them has them.
 */
import type { BatchOp, Database } from './database.js';
import { prefixEnd, prefixRange, realmKeys, type RealmKeys } from './keys.js';
import type { Transaction } from './transaction.js';

export class EventLog {
  private readonly keys: RealmKeys;

  constructor(
    readonly db: Database,
    readonly realmId: number,
  ) {
    this.keys = realmKeys(realmId);
  }

  append(id: number, entry: unknown, tx: Transaction): void {
    tx.put(this.keys.event(id), entry);
  }

  /** An op deleting one log entry, for writes that carry bookkeeping along. */
  deletion(id: number): BatchOp {
    return { type: 'del', key: this.keys.event(id) };
  }

  /**
   * An op writing a queue's acknowledgement: its own small record, so that the polls of thousands
   * of queues rewrite a few bytes each, not their whole descriptor (~420 bytes: at 2,000 polling
   * people that was 1 MB/s, 95% of what the store wrote, and LevelDB's compactions of it took a
   * third of the server's core).
   */
  ackWrite(queueId: string, ack: number): BatchOp {
    return { type: 'put', key: this.keys.queueAck(queueId), value: ack };
  }

  /** The ops deleting a queue's descriptor and acknowledgement, for writes that carry bookkeeping along. */
  descriptorDeletions(queueId: string): BatchOp[] {
    return [{ type: 'del', key: this.keys.queue(queueId) }, { type: 'del', key: this.keys.queueAck(queueId) }];
  }

  saveDescriptor(queueId: string, descriptor: unknown): Promise<void> {
    return this.db.commit([{ type: 'put', key: this.keys.queue(queueId), value: descriptor }]);
  }

  deleteDescriptor(queueId: string, tx: Transaction): void {
    tx.del(this.keys.queue(queueId));
    tx.del(this.keys.queueAck(queueId));
  }

  descriptors<T>(): AsyncGenerator<[string, T]> {
    return this.db.scan<T>(prefixRange(this.keys.queuePrefix));
  }

  /** Every stored acknowledgement by queue id. */
  async acks(): Promise<Map<string, number>> {
    const acks = new Map<string, number>();
    const prefix = this.keys.queueAckPrefix;
    for await (const [key, ack] of this.db.scan<number>(prefixRange(prefix))) acks.set(key.slice(prefix.length), ack);
    return acks;
  }

  /** Deletes every entry up to `id`, in one native range deletion (never read). */
  clearThrough(id: number): Promise<void> {
    return this.db.clear({ gte: this.keys.eventPrefix, lte: this.keys.event(id) });
  }

  /** Entries after `id`, oldest first. */
  async *entriesAfter<T>(id: number): AsyncGenerator<T> {
    for await (const [, entry] of this.db.scan<T>({ gt: this.keys.event(id), lt: prefixEnd(this.keys.eventPrefix) })) yield entry;
  }
}
