/** Reads of user groups: the API's group object, the list, members and subgroups, and finding a group. */
import { badRequest } from '../domain/errors.js';
import { GROUP_SETTING_NAMES, groupSettingValue, settingValueForApi, type GroupSettingName } from '../domain/group-settings.js';
import { groupClosure, groupMembers, type GroupRecord, type GroupSettingValue } from '../domain/groups.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import { mayActAsMember, refusalError } from '../domain/permissions.js';

/** Is the user an active person or bot of the organization (the system bots are not members of anything)? */
export function isActiveMember(services: Services, userId: number): boolean {
  const user = services.org.users.get(userId);
  return user !== undefined && user.isActive && !user.isSystemBot;
}

/** A group's setting as the API shows it (its default where none is stored). */
export function groupSettingForApi(services: Services, group: GroupRecord, name: GroupSettingName): GroupSettingValue {
  const value = groupSettingValue(group, name, services.org.realm.systemGroups);
  return settingValueForApi(value, (id) => isActiveMember(services, id));
}

/** Zulip's UserGroup object (GET /user_groups, register's realm_user_groups, the `add` event). */
export function groupObject(services: Services, group: GroupRecord): Record<string, unknown> {
  const object: Record<string, unknown> = {
    id: group.id,
    name: group.name,
    description: group.description,
    members: group.directMembers.filter((id) => isActiveMember(services, id)).sort((a, b) => a - b),
    direct_subgroup_ids: [...group.directSubgroups].sort((a, b) => a - b),
    is_system_group: group.isSystemGroup,
    date_created: group.isSystemGroup ? null : group.dateCreated,
    creator_id: group.creatorId,
  };
  for (const name of GROUP_SETTING_NAMES) object[name] = groupSettingForApi(services, group, name);
  object.deactivated = group.deactivated;
  return object;
}

/** Every group in id order, deactivated ones only when asked for. */
export function groupObjects(services: Services, includeDeactivated: boolean): Record<string, unknown>[] {
  return [...services.org.groups.all()]
    .filter((group) => includeDeactivated || !group.deactivated)
    .sort((a, b) => a.id - b.id)
    .map((group) => groupObject(services, group));
}

/** Zulip's require_member_or_admin, on every user-group endpoint but creating and deactivating. */
export function requireMemberOrAdmin(user: UserRecord): void {
  const refusal = mayActAsMember(user);
  if (refusal) throw refusalError(refusal);
  if (user.isBot) throw badRequest('This endpoint does not accept bot requests.');
}

/** A group to change (deactivated ones included): an unknown id is Zulip's "Invalid user group". */
export function requireGroup(services: Services, groupId: number): GroupRecord {
  const group = services.org.groups.get(groupId);
  if (!group) throw badRequest('Invalid user group');
  return group;
}

/** A group whose membership is read: Zulip refuses deactivated groups here. */
export function requireGroupToRead(services: Services, groupId: number): GroupRecord {
  const group = requireGroup(services, groupId);
  if (group.deactivated) throw badRequest('User group is deactivated.');
  return group;
}

/** GET /user_groups/{id}/members */
export function groupMemberIds(services: Services, groupId: number, directOnly: boolean): number[] {
  const group = requireGroupToRead(services, groupId);
  const members = directOnly ? group.directMembers : [...groupMembers(group.id, services.org.groups)];
  return members.filter((id) => isActiveMember(services, id)).sort((a, b) => a - b);
}

/** GET /user_groups/{id}/members/{user_id} */
export function isGroupMemberQuery(services: Services, groupId: number, userId: number, directOnly: boolean): boolean {
  const group = requireGroupToRead(services, groupId);
  const user = services.org.users.get(userId);
  if (!user || user.isSystemBot) throw badRequest('No such user');
  if (!user.isActive) throw badRequest('User is deactivated');
  if (directOnly) return group.directMembers.includes(userId);
  return groupMembers(group.id, services.org.groups).has(userId);
}

/** GET /user_groups/{id}/subgroups: every group below it (itself excluded), or its direct subgroups. */
export function subgroupIds(services: Services, groupId: number, directOnly: boolean): number[] {
  const group = requireGroupToRead(services, groupId);
  if (directOnly) return [...group.directSubgroups].sort((a, b) => a - b);
  const below = new Set<number>();
  for (const id of group.directSubgroups) groupClosure(id, services.org.groups, below);
  below.delete(group.id);
  return [...below].sort((a, b) => a - b);
}
