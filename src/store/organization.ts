/**
 * One organization's in-memory state: its realm record, users, groups, channels and
 * conversation recipients, loaded from the
 * store at start (their number does not grow with messages) and saved record by record.
 */
import type { RealmRecord } from '../domain/realm.js';
import type { Database } from './database.js';
import { GroupDirectory } from './groups.js';
import { prefixRange, realmKeys, serverKeys, type RealmKeys } from './keys.js';
import type { Transaction } from './transaction.js';
import { UserDirectory } from './users.js';
import { ChannelDirectory } from './channels.js';
import { ConversationDirectory } from './conversations.js';

export class Organization {
  readonly keys: RealmKeys;
  readonly users: UserDirectory;
  readonly groups: GroupDirectory;
  readonly channels: ChannelDirectory;
  readonly conversations: ConversationDirectory;
  /** Host part of dummy email addresses (`user{id}@{host}`). */
  readonly host: string;

  constructor(
    public realm: RealmRecord,
    /** The organization's URL as clients see it. */
    readonly url: string,
  ) {
    this.keys = realmKeys(realm.id);
    this.host = new URL(url).hostname;
    this.users = new UserDirectory(this.keys, this.host);
    this.groups = new GroupDirectory(this.keys);
    this.channels = new ChannelDirectory(this.keys);
    this.conversations = new ConversationDirectory(this.keys, realm.id);
  }

  get id(): number {
    return this.realm.id;
  }

  saveRealm(realm: RealmRecord, tx: Transaction): void {
    const previous = this.realm;
    tx.onRollback(() => (this.realm = previous));
    this.realm = realm;
    tx.put(this.keys.realm, realm);
  }

  /** Whether the store still holds this organization's record (one point read; throws if the store is closed or broken). */
  storedIn(db: Database): boolean {
    return db.get(this.keys.realm) !== undefined;
  }

  /** Lists a new organization in the server's index of organizations (in `tx`). */
  static index(realmId: number, tx: Transaction): void {
    tx.put(serverKeys.realmIndex(realmId), { id: realmId });
  }

  /** The first organization on this server, or undefined on an empty store. */
  static async firstId(db: Database): Promise<number | undefined> {
    for await (const [, entry] of db.scan<{ id: number }>(prefixRange(serverKeys.realmIndexPrefix), { limit: 1 })) return entry.id;
    return undefined;
  }

  static async load(db: Database, realmId: number, url: string): Promise<Organization | undefined> {
    const keys = realmKeys(realmId);
    const realm = db.get<RealmRecord>(keys.realm);
    if (!realm) return undefined;
    const org = new Organization(realm, url);
    await org.users.load(db);
    await org.groups.load(db);
    await org.channels.load(db);
    await org.conversations.load(db);
    return org;
  }
}
