/** User groups as records, group-setting values, and the membership questions asked of them. */

export interface GroupRecord {
  id: number;
  name: string;
  description: string;
  isSystemGroup: boolean;
  directMembers: number[];
  directSubgroups: number[];
  deactivated: boolean;
  creatorId: number | null;
  /** Unix seconds. */
  dateCreated: number;
  /** Permission settings (`can_manage_group`, …) as group-setting values. */
  settings: Record<string, GroupSettingValue>;
}

/** A group id, or an anonymous group of users and subgroups. */
export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

export interface GroupLookup {
  get(id: number): GroupRecord | undefined;
}

/** Every group reachable from `groupId` through subgroups, `groupId` included. */
export function groupClosure(groupId: number, groups: GroupLookup, seen = new Set<number>()): Set<number> {
  if (seen.has(groupId)) return seen;
  seen.add(groupId);
  const group = groups.get(groupId);
  if (group) for (const sub of group.directSubgroups) groupClosure(sub, groups, seen);
  return seen;
}

/** Is `userId` a member of the group, directly or through a (non-deactivated) subgroup? */
export function isGroupMember(userId: number, groupId: number, groups: GroupLookup): boolean {
  for (const id of groupClosure(groupId, groups)) {
    const group = groups.get(id);
    if (group && group.directMembers.includes(userId)) return true;
  }
  return false;
}

/** Does the group-setting value grant its permission to `userId`? */
export function settingIncludes(userId: number, value: GroupSettingValue, groups: GroupLookup): boolean {
  if (typeof value === 'number') return isGroupMember(userId, value, groups);
  if (value.direct_members.includes(userId)) return true;
  return value.direct_subgroups.some((id) => isGroupMember(userId, id, groups));
}

/** All members of a group, recursively. */
export function groupMembers(groupId: number, groups: GroupLookup): Set<number> {
  const members = new Set<number>();
  for (const id of groupClosure(groupId, groups)) for (const user of groups.get(id)?.directMembers ?? []) members.add(user);
  return members;
}
