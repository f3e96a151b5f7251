/**
 * The outbox: mail the server would have sent had SMTP been configured, kept in the store so
 * that a fresh install still works (`npm run cli -- outbox` prints it). A mail is written in
 * the same batch as the change that sends it.
 */
import type { OutgoingMail } from '../domain/mail.js';
import type { Counters } from './counters.js';
import type { Database } from './database.js';
import { prefixRange, realmKeys, type RealmKeys } from './keys.js';
import type { Transaction } from './transaction.js';

export interface OutboxEntry extends OutgoingMail {
  id: number;
  /** Unix seconds. */
  queuedAt: number;
}

export class Outbox {
  private readonly keys: RealmKeys;

  constructor(
    private readonly db: Database,
    private readonly counters: Counters,
    private readonly realmId: number,
  ) {
    this.keys = realmKeys(realmId);
  }

  put(mail: OutgoingMail, queuedAt: number, tx: Transaction): OutboxEntry {
    const entry: OutboxEntry = { id: this.counters.nextRealmId(this.realmId, 'outbox', tx), queuedAt, ...mail };
    tx.put(this.keys.outbox(entry.id), entry);
    return entry;
  }

  /** Every mail in the outbox, oldest first. */
  async list(): Promise<OutboxEntry[]> {
    const entries: OutboxEntry[] = [];
    for await (const [, entry] of this.db.scan<OutboxEntry>(prefixRange(this.keys.outboxPrefix))) entries.push(entry);
    return entries;
  }
}
