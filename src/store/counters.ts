/** Persisted counters that hand out integer ids; each new value is written in the batch that uses it. */
import type { Database } from './database.js';
import { realmKeys, serverKeys } from './keys.js';
import type { Transaction } from './transaction.js';

/** Ids handed out server-wide: organizations, and messages (whose ids grow with time across the server). */
export type ServerCounter = 'realm' | 'message';
/** Ids handed out within one organization. */
export type RealmCounter = 'user' | 'group' | 'channel' | 'recipient' | 'event' | 'scheduled_message' | 'draft' | 'saved_snippet' | 'profile_field' | 'invite' | 'multiuse_invite' | 'outbox' | 'attachment' | 'realm_emoji' | 'channel_folder' | 'realm_export' | 'push_job' | 'linkifier' | 'playground' | 'submessage';

export class Counters {
  private readonly values = new Map<string, number>();
  /** Realm counter keys by realm and name, so that hot counters (events) build no string. */
  private readonly realmKeyCache = new Map<number, Map<RealmCounter, string>>();

  constructor(private readonly db: Database) {
    db.onReopen(() => this.reconcile());
  }

  /**
   * After the store is reopened: each counter becomes the larger of what memory handed out and
   * what the disk holds, so that no id handed out before the failure is handed out again
   * (ids of refused writes stay skipped) and nothing written by another path is overtaken.
   */
  reconcile(): void {
    for (const [key, value] of this.values) this.values.set(key, Math.max(value, this.db.get<number>(key) ?? 0));
  }

  /** Never hands out `value` or below under `key` again (cluster: a value another node handed out). */
  raise(key: string, value: number): void {
    this.values.set(key, Math.max(this.current(key), value));
  }

  /** The last id handed out under `key` (0 when none). */
  current(key: string): number {
    let value = this.values.get(key);
    if (value === undefined) {
      value = this.db.get<number>(key) ?? 0;
      this.values.set(key, value);
    }
    return value;
  }

  next(key: string, tx: Transaction): number {
    const value = this.current(key) + 1;
    this.values.set(key, value);
    // Written late so that a transaction sealed after a later one cannot move the counter back.
    tx.putLate(key, () => this.values.get(key));
    return value;
  }

  nextServerId(name: ServerCounter, tx: Transaction): number {
    return this.next(serverKeys.counter(name), tx);
  }

  /** The id `nextServerId` will hand out next (nothing is handed out). */
  upcomingServerId(name: ServerCounter): number {
    return this.current(serverKeys.counter(name)) + 1;
  }

  nextRealmId(realmId: number, name: RealmCounter, tx: Transaction): number {
    return this.next(this.realmKey(realmId, name), tx);
  }

  currentRealmId(realmId: number, name: RealmCounter): number {
    return this.current(this.realmKey(realmId, name));
  }

  private realmKey(realmId: number, name: RealmCounter): string {
    let keys = this.realmKeyCache.get(realmId);
    if (!keys) this.realmKeyCache.set(realmId, (keys = new Map()));
    let key = keys.get(name);
    if (key === undefined) keys.set(name, (key = realmKeys(realmId).counter(name)));
    return key;
  }
}
