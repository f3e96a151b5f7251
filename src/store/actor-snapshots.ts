/** Where actors' persisted snapshots live: one record per (kind, entity) of an organization. */
import type { Database } from './database.js';
import { prefixRange, realmKeys, type RealmKeys } from './keys.js';
import type { Transaction } from './transaction.js';

export class ActorSnapshots {
  private readonly keys: RealmKeys;

  constructor(
    private readonly db: Database,
    realmId: number,
  ) {
    this.keys = realmKeys(realmId);
  }

  /** Every persisted snapshot of `kind`, with its entity id. */
  async *all(kind: string): AsyncGenerator<[id: string, snapshot: unknown]> {
    const prefix = this.keys.actorPrefix(kind);
    for await (const [key, snapshot] of this.db.scan<unknown>(prefixRange(prefix))) yield [key.slice(prefix.length), snapshot];
  }

  save(kind: string, id: string, snapshot: unknown, tx: Transaction): void {
    tx.put(this.keys.actor(kind, id), snapshot);
  }

  delete(kind: string, id: string, tx: Transaction): void {
    tx.del(this.keys.actor(kind, id));
  }
}
