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
import { organizationUrl } from '../domain/organization-hosts.js';

/** An organization as the server's index lists it. */
export interface IndexEntry {
  id: number;
  subdomain: string;
}

/** The realm record; records from before subdomains named the field `stringId` (always '' then). */
function readRealm(db: Database, realmId: number): RealmRecord | undefined {
  const stored = db.get<RealmRecord & { stringId?: string }>(realmKeys(realmId).realm);
  if (!stored) return undefined;
  const { stringId, ...realm } = stored;
  return { ...realm, subdomain: realm.subdomain ?? stringId ?? '' };
}

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

  /** Lists a new organization in the server's index of organizations, and by its subdomain (in `tx`). */
  static index(realmId: number, subdomain: string, tx: Transaction): void {
    tx.put(serverKeys.realmIndex(realmId), { id: realmId, subdomain } satisfies IndexEntry);
    tx.put(serverKeys.subdomain(subdomain), { id: realmId });
  }

  /** Every organization on this server, in id order (one range scan of the server's index). */
  static async list(db: Database): Promise<IndexEntry[]> {
    const entries: IndexEntry[] = [];
    for await (const [, entry] of db.scan<Partial<IndexEntry> & { id: number }>(prefixRange(serverKeys.realmIndexPrefix))) {
      entries.push({ id: entry.id, subdomain: entry.subdomain ?? '' });
    }
    return entries;
  }

  /**
   * The organization at `subdomain`, or undefined: one point read. A store written before
   * subdomains existed holds one organization, listed without a subdomain: that is the root.
   */
  static async idBySubdomain(db: Database, subdomain: string): Promise<number | undefined> {
    const found = db.get<{ id: number }>(serverKeys.subdomain(subdomain));
    if (found) return found.id;
    if (subdomain !== '') return undefined;
    for await (const [, entry] of db.scan<Partial<IndexEntry> & { id: number }>(prefixRange(serverKeys.realmIndexPrefix), { limit: 1 })) {
      return entry.subdomain === undefined ? entry.id : undefined;
    }
    return undefined;
  }

  /** The first organization on this server, or undefined on an empty store. */
  static async firstId(db: Database): Promise<number | undefined> {
    for await (const [, entry] of db.scan<{ id: number }>(prefixRange(serverKeys.realmIndexPrefix), { limit: 1 })) return entry.id;
    return undefined;
  }

  /** The subdomain of the organization `realmId` (one point read), or undefined when it is gone. */
  static subdomainOf(db: Database, realmId: number): string | undefined {
    return readRealm(db, realmId)?.subdomain;
  }

  /** Reads the organization `realmId`; its URL is the root URL's for its subdomain (domain/organization-hosts.ts). */
  static async load(db: Database, realmId: number, rootUrl: string): Promise<Organization | undefined> {
    const keys = realmKeys(realmId);
    const realm = readRealm(db, realmId);
    if (!realm) return undefined;
    const org = new Organization(realm, organizationUrl(rootUrl, realm.subdomain));
    await org.users.load(db);
    await org.groups.load(db);
    await org.channels.load(db);
    await org.conversations.load(db);
    return org;
  }
}
