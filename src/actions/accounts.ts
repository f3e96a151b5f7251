/**
 * Writes that create organizations and accounts and change who someone is: used by start-up,
 * the admin CLI and the API. Each builds one transaction; system-group membership follows
 * the role.
 */
import type { Counters } from '../store/counters.js';
import type { GroupRecord } from '../domain/groups.js';
import { REALM_DEFAULTS, type RealmRecord } from '../domain/realm.js';
import { Role } from '../domain/roles.js';
import { directSystemGroups, SYSTEM_GROUPS, type SystemGroupName } from '../domain/system-groups.js';
import { generateApiKey, hashPassword } from '../domain/credentials.js';
import { newUserRecord, type UserRecord } from '../domain/users.js';
import { ApiError } from '../domain/errors.js';
import { Organization } from '../store/organization.js';
import { organizationUrl } from '../domain/organization-hosts.js';
import { Transaction } from '../store/transaction.js';

/** Builds a new organization with its system groups; the caller commits `tx`. */
export function createOrganization(
  counters: Counters,
  tx: Transaction,
  options: { name: string; description?: string; /** The server's root URL (PARLEY_EXTERNAL_URL). */ rootUrl: string; nowMs: number; settings?: Partial<RealmRecord['settings']>; /** '' (the default) for the root organization. */ subdomain?: string },
): Organization {
  const realmId = counters.nextServerId('realm', tx);
  const realm: RealmRecord = {
    id: realmId,
    subdomain: options.subdomain ?? '',
    name: options.name,
    description: options.description ?? '',
    deactivated: false,
    dateCreated: Math.floor(options.nowMs / 1000),
    systemGroups: {} as Record<SystemGroupName, number>,
    settings: { ...REALM_DEFAULTS, ...options.settings },
  };
  const org = new Organization(realm, organizationUrl(options.rootUrl, realm.subdomain));
  const ids = new Map<string, number>();
  for (const definition of SYSTEM_GROUPS) ids.set(definition.name, counters.nextRealmId(org.id, 'group', tx));
  for (const definition of SYSTEM_GROUPS) {
    const group: GroupRecord = {
      id: ids.get(definition.name)!,
      name: definition.name,
      description: definition.description,
      isSystemGroup: true,
      directMembers: [],
      directSubgroups: definition.subgroup ? [ids.get(definition.subgroup)!] : [],
      deactivated: false,
      creatorId: null,
      dateCreated: realm.dateCreated,
      settings: {},
    };
    realm.systemGroups[definition.name] = group.id;
    org.groups.save(group, tx);
  }
  Organization.index(realmId, realm.subdomain, tx);
  org.saveRealm(realm, tx);
  return org;
}

export interface NewAccount {
  email: string;
  fullName: string;
  role: Role;
  /** The password's hash (hash it before the write: hashing is slow and asynchronous), or null for none. */
  passwordHash: string | null;
  isBot?: boolean;
  botType?: number | null;
  botOwnerId?: number | null;
  isSystemBot?: boolean;
  nowMs: number;
}

/** Adds a user (or bot) to `org`; the caller commits `tx`. */
/** A new person's settings: the organization's defaults where its administrators changed them (bots keep Zulip's). */
function initialSettings(org: Organization, account: NewAccount): Partial<UserRecord> {
  const overrides = org.realm.userSettingsDefaults;
  if (!overrides || account.isBot) return {};
  const { email_address_visibility: visibility, ...settings } = overrides;
  return visibility === undefined ? { settings: { ...settings } } : { settings: { ...settings }, emailAddressVisibility: visibility as UserRecord['emailAddressVisibility'] };
}

export function createAccount(org: Organization, counters: Counters, tx: Transaction, account: NewAccount): UserRecord {
  if (org.users.byEmail(account.email)) throw new ApiError('BAD_REQUEST', `Email '${account.email}' already in use`);
  const user = newUserRecord({
    id: counters.nextRealmId(org.id, 'user', tx),
    recipientId: counters.nextRealmId(org.id, 'recipient', tx),
    deliveryEmail: account.email,
    fullName: account.fullName,
    role: account.role,
    apiKey: generateApiKey(),
    passwordHash: account.passwordHash,
    isBot: account.isBot ?? false,
    botType: account.isBot ? (account.botType ?? 1) : null,
    botOwnerId: account.isBot ? (account.botOwnerId ?? null) : null,
    isSystemBot: account.isSystemBot ?? false,
    dateJoined: account.nowMs,
    ...initialSettings(org, account),
  });
  org.users.save(user, tx);
  if (!user.isSystemBot) moveBetweenSystemGroups(org, tx, user.id, undefined, user.role);
  return user;
}

/** Keeps system-group membership in step with a role change. */
export function moveBetweenSystemGroups(org: Organization, tx: Transaction, userId: number, from: Role | undefined, to: Role | undefined): void {
  const leave = from === undefined ? [] : directSystemGroups(from);
  const join = to === undefined ? [] : directSystemGroups(to);
  for (const name of leave) {
    if (join.includes(name)) continue;
    const group = org.groups.get(org.realm.systemGroups[name])!;
    org.groups.save({ ...group, directMembers: group.directMembers.filter((id) => id !== userId) }, tx);
  }
  for (const name of join) {
    if (leave.includes(name)) continue;
    const group = org.groups.get(org.realm.systemGroups[name])!;
    if (!group.directMembers.includes(userId)) org.groups.save({ ...group, directMembers: [...group.directMembers, userId] }, tx);
  }
}

export function changeRole(org: Organization, tx: Transaction, user: UserRecord, role: Role): UserRecord {
  const updated = { ...user, role };
  org.users.save(updated, tx);
  moveBetweenSystemGroups(org, tx, user.id, user.role, role);
  return updated;
}

export async function setPassword(org: Organization, tx: Transaction, user: UserRecord, password: string): Promise<UserRecord> {
  const passwordHash = await hashPassword(password);
  // Read again after the await, so that a change made meanwhile is not overwritten.
  const updated = { ...(org.users.get(user.id) ?? user), passwordHash };
  org.users.save(updated, tx);
  return updated;
}

export function regenerateApiKey(org: Organization, tx: Transaction, user: UserRecord): UserRecord {
  const updated = { ...user, apiKey: generateApiKey() };
  org.users.save(updated, tx);
  return updated;
}
