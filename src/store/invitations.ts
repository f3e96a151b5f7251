/**
 * The invitations of one organization, email invitations and reusable links, held in memory (an
 * organization has a few hundred at most) with an index by key for the join page, loaded once at
 * start; each change goes to the store in the caller's transaction and is undone in memory if
 * that transaction rolls back.
 */
import { kindOf, type InvitationKind, type InvitationRecord } from '../domain/invitations.js';
import type { Database } from './database.js';
import { prefixRange, realmKeys, type RealmKeys } from './keys.js';
import type { Transaction } from './transaction.js';

export class Invitations {
  private readonly keys: RealmKeys;
  private readonly records = new Map<string, InvitationRecord>();
  private readonly byKey = new Map<string, string>();

  constructor(
    private readonly db: Database,
    realmId: number,
  ) {
    this.keys = realmKeys(realmId);
  }

  /** Reads every record from the store; called once before the server serves. */
  async load(): Promise<void> {
    for await (const [, record] of this.db.scan<InvitationRecord>(prefixRange(this.keys.invitationPrefix))) this.remember(record);
  }

  get(kind: InvitationKind, id: number): InvitationRecord | undefined {
    return this.records.get(`${kind}:${id}`);
  }

  byLinkKey(key: string): InvitationRecord | undefined {
    const name = this.byKey.get(key);
    return name === undefined ? undefined : this.records.get(name);
  }

  all(): IterableIterator<InvitationRecord> {
    return this.records.values();
  }

  put(record: InvitationRecord, tx: Transaction): void {
    const before = this.get(kindOf(record), record.id);
    this.remember(record);
    tx.put(this.keys.invitation(kindOf(record), record.id), record);
    tx.onRollback(() => (before ? this.remember(before) : this.forget(record)));
  }

  private remember(record: InvitationRecord): void {
    const name = `${kindOf(record)}:${record.id}`;
    this.records.set(name, record);
    this.byKey.set(record.key, name);
  }

  private forget(record: InvitationRecord): void {
    this.records.delete(`${kindOf(record)}:${record.id}`);
    this.byKey.delete(record.key);
  }
}
