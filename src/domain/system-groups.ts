/**
 * The system groups every organization has, their place in the role hierarchy, and which
 * roles are their direct members. Membership follows roles: changing a user's role moves the
 * user between these groups.
 */
import { Role } from './roles.js';

export const SYSTEM_GROUPS = [
  { name: 'role:owners', description: 'Owners of this organization', roles: [Role.OWNER], subgroup: null },
  { name: 'role:administrators', description: 'Administrators of this organization, including owners', roles: [Role.ADMINISTRATOR], subgroup: 'role:owners' },
  { name: 'role:moderators', description: 'Moderators of this organization, including administrators', roles: [Role.MODERATOR], subgroup: 'role:administrators' },
  { name: 'role:fullmembers', description: 'Members of this organization, not including new accounts and guests', roles: [Role.MEMBER], subgroup: 'role:moderators' },
  { name: 'role:members', description: 'Members of this organization, not including guests', roles: [Role.MEMBER], subgroup: 'role:fullmembers' },
  { name: 'role:everyone', description: 'Everyone in this organization, including guests', roles: [Role.GUEST], subgroup: 'role:members' },
  { name: 'role:internet', description: 'Everyone on the internet', roles: [], subgroup: 'role:everyone' },
  { name: 'role:nobody', description: 'Nobody', roles: [], subgroup: null },
] as const;

export type SystemGroupName = (typeof SYSTEM_GROUPS)[number]['name'];

/** The system groups a user of `role` is a direct member of. */
export function directSystemGroups(role: Role): SystemGroupName[] {
  return SYSTEM_GROUPS.filter((group) => (group.roles as readonly Role[]).includes(role)).map((group) => group.name);
}

/** Does a user of `role` belong (directly or through subgroups) to system group `name`? */
export function roleIsIn(role: Role, name: SystemGroupName): boolean {
  switch (name) {
    case 'role:owners':
      return role === Role.OWNER;
    case 'role:administrators':
      return role <= Role.ADMINISTRATOR;
    case 'role:moderators':
      return role <= Role.MODERATOR;
    case 'role:fullmembers':
    case 'role:members':
      return role <= Role.MEMBER;
    case 'role:everyone':
    case 'role:internet':
      return true;
    case 'role:nobody':
      return false;
  }
}
