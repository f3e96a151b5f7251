/**
 * Rules of user groups beyond their settings: names, subgroups without cycles, and what keeps a
 * group from being deactivated (Zulip's `objections`).
 */
import type { ChannelRecord } from './channel-record.js';
import { ApiError, badRequest } from './errors.js';
import { GROUP_SETTING_NAMES, settingUsesGroup } from './group-settings.js';
import { groupClosure, type GroupLookup, type GroupRecord, type GroupSettingValue } from './groups.js';

export const MAX_GROUP_NAME_LENGTH = 100;
/** Prefixes of system groups and of mention syntax (Zulip's INVALID_NAME_PREFIXES). */
const INVALID_NAME_PREFIXES = ['@', 'role:', 'user:', 'stream:', 'channel:'];

/** Zulip's check_user_group_name: the name as given, or its error. */
export function checkGroupName(name: string): string {
  if (name.trim() === '') throw badRequest("User group name can't be empty!");
  if ([...name].length > MAX_GROUP_NAME_LENGTH) throw badRequest(`User group name cannot exceed ${MAX_GROUP_NAME_LENGTH} characters.`);
  for (const prefix of INVALID_NAME_PREFIXES) {
    if (name.startsWith(prefix)) throw badRequest(`User group name cannot start with '${prefix}'.`);
  }
  return name;
}

/** Subgroups named in a change exist and are not deactivated (Zulip refuses deactivated ones either way). */
function requireUsableSubgroups(subgroupIds: readonly number[], groups: GroupLookup): void {
  for (const id of subgroupIds) {
    const subgroup = groups.get(id);
    if (!subgroup) throw badRequest(`Invalid user group ID: ${id}`);
    if (subgroup.deactivated) throw badRequest('User group is deactivated.');
  }
}

/**
 * Subgroups to add to `groupId`: each exists, is not deactivated, is not a subgroup already, and
 * does not contain the group (directly or through its own subgroups), which would make a cycle.
 */
export function checkSubgroupsToAdd(groupId: number, subgroupIds: readonly number[], groups: GroupLookup): void {
  const group = groups.get(groupId)!;
  requireUsableSubgroups(subgroupIds, groups);
  for (const id of subgroupIds) {
    if (group.directSubgroups.includes(id)) throw badRequest(`User group ${id} is already a subgroup of this group.`);
  }
  const below = new Set<number>();
  for (const id of subgroupIds) groupClosure(id, groups, below);
  if (below.has(groupId)) throw badRequest(`User group ${groupId} is already a subgroup of one of the passed subgroups.`);
}

/** Subgroups to remove from `groupId`: each exists, is not deactivated, and is a direct subgroup. */
export function checkSubgroupsToRemove(groupId: number, subgroupIds: readonly number[], groups: GroupLookup): void {
  const group = groups.get(groupId)!;
  requireUsableSubgroups(subgroupIds, groups);
  for (const id of subgroupIds) {
    if (!group.directSubgroups.includes(id)) throw badRequest(`User group ${id} is not a subgroup of this group.`);
  }
}

export type Objection =
  | { type: 'subgroup'; supergroup_ids: number[] }
  | { type: 'channel'; channel_id: number; settings: string[] }
  | { type: 'user_group'; group_id: number; settings: string[] }
  | { type: 'realm'; settings: string[] };

export interface UsageFacts {
  groups: Iterable<GroupRecord>;
  channels: Iterable<ChannelRecord>;
  /** The organization's group settings by name, as values. */
  realmSettings: Iterable<[string, GroupSettingValue]>;
}

/**
 * Where the group is in use, in Zulip's order: as a subgroup of an active group, and in the
 * settings of unarchived channels, of active groups (itself included) and of the organization.
 */
export function deactivationObjections(groupId: number, facts: UsageFacts): Objection[] {
  const objections: Objection[] = [];
  const groups = [...facts.groups].sort((a, b) => a.id - b.id);
  const supergroups = groups.filter((g) => !g.deactivated && g.directSubgroups.includes(groupId)).map((g) => g.id);
  if (supergroups.length > 0) objections.push({ type: 'subgroup', supergroup_ids: supergroups });
  for (const channel of [...facts.channels].sort((a, b) => a.id - b.id)) {
    if (channel.isArchived) continue;
    const settings = Object.keys(channel.settings).sort().filter((name) => settingUsesGroup(channel.settings[name], groupId));
    if (settings.length > 0) objections.push({ type: 'channel', channel_id: channel.id, settings });
  }
  for (const group of groups) {
    if (group.deactivated) continue;
    const settings = GROUP_SETTING_NAMES.filter((name) => settingUsesGroup(group.settings[name], groupId));
    if (settings.length > 0) objections.push({ type: 'user_group', group_id: group.id, settings: [...settings] });
  }
  const realm = [...facts.realmSettings].filter(([, value]) => settingUsesGroup(value, groupId)).map(([name]) => name).sort();
  if (realm.length > 0) objections.push({ type: 'realm', settings: realm });
  return objections;
}

/** Zulip's CannotDeactivateGroupInUseError. */
export function groupInUseError(objections: Objection[]): ApiError {
  return new ApiError('CANNOT_DEACTIVATE_GROUP_IN_USE', 'Cannot deactivate user group in use.', 400, { objections });
}
