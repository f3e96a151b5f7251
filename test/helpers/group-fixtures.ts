/** Plain-record fixtures for the user-group unit tests: one user per role, the system groups, a few user groups. */
import type { GroupLookup, GroupRecord } from '../../src/domain/groups.js';
import { REALM_DEFAULTS, type RealmRecord, type RealmSettings } from '../../src/domain/realm.js';
import { Role } from '../../src/domain/roles.js';
import { directSystemGroups, SYSTEM_GROUPS, type SystemGroupName } from '../../src/domain/system-groups.js';

export const owner = { id: 1, role: Role.OWNER };
export const admin = { id: 2, role: Role.ADMINISTRATOR };
export const moderator = { id: 3, role: Role.MODERATOR };
export const member = { id: 4, role: Role.MEMBER };
export const otherMember = { id: 5, role: Role.MEMBER };
export const guest = { id: 6, role: Role.GUEST };
export const people = [owner, admin, moderator, member, otherMember, guest];
/** Users that are not active (deactivated, or unknown). */
export const INACTIVE = 99;

export const systemGroups = Object.fromEntries(SYSTEM_GROUPS.map((definition, index) => [definition.name, index + 1])) as Record<SystemGroupName, number>;
export const sys = (name: SystemGroupName) => systemGroups[name];

export const record = (id: number, name: string, directMembers: number[], directSubgroups: number[] = [], fields: Partial<GroupRecord> = {}): GroupRecord => ({
  id, name, description: '', isSystemGroup: name.startsWith('role:'), directMembers, directSubgroups, deactivated: false, creatorId: null, dateCreated: 0, settings: {}, ...fields,
});

/** A directory of the system groups plus `extra` user groups. */
export function directory(extra: GroupRecord[] = []): GroupLookup & { all(): GroupRecord[] } {
  const byId = new Map<number, GroupRecord>();
  for (const definition of SYSTEM_GROUPS) {
    const members = people.filter((u) => directSystemGroups(u.role).includes(definition.name)).map((u) => u.id);
    byId.set(sys(definition.name), record(sys(definition.name), definition.name, members, definition.subgroup ? [sys(definition.subgroup)] : []));
  }
  for (const group of extra) byId.set(group.id, group);
  return { get: (id) => byId.get(id), all: () => [...byId.values()] };
}

export const realmWith = (settings: Partial<Record<string, unknown>> = {}): RealmRecord => ({
  id: 1, subdomain: '', name: 'Test', description: '', deactivated: false, dateCreated: 0, systemGroups,
  settings: { ...REALM_DEFAULTS, ...settings } as RealmSettings,
});

export const isActiveUser = (id: number) => people.some((u) => u.id === id);
