/** Recipient ids of group direct-message conversations, by participants; loaded at start, created on first message. */
import type { Counters } from './counters.js';
import type { Database } from './database.js';
import { prefixRange, type RealmKeys } from './keys.js';
import type { Transaction } from './transaction.js';

export class ConversationDirectory {
  private readonly recipients = new Map<string, number>();

  constructor(
    private readonly keys: RealmKeys,
    private readonly realmId: number,
  ) {}

  async load(db: Database): Promise<void> {
    const prefix = this.keys.conversationRecipientPrefix;
    for await (const [key, recipientId] of db.scan<number>(prefixRange(prefix))) this.recipients.set(key.slice(prefix.length), recipientId);
  }

  /** The conversation's recipient id, allocated (in `tx`) the first time it is used. */
  recipientFor(conversation: string, counters: Counters, tx: Transaction): number {
    let id = this.recipients.get(conversation);
    if (id === undefined) {
      id = counters.nextRealmId(this.realmId, 'recipient', tx);
      this.recipients.set(conversation, id);
      tx.onRollback(() => this.recipients.delete(conversation));
      tx.put(this.keys.conversationRecipient(conversation), id);
    }
    return id;
  }
}
