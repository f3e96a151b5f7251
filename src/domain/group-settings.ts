/**
 * Group-setting values in one place: the six permission settings of a user group, what each
 * may be set to, the normal form of a value (Zulip's parse_group_setting_value), the `{new, old}`
 * update with its check of `old`, and where a group is used as (part of) a value.
 */
import { ApiError, badRequest } from './errors.js';
import type { GroupLookup, GroupRecord, GroupSettingValue } from './groups.js';
import type { SystemGroupName } from './system-groups.js';

export const GROUP_SETTING_NAMES = [
  'can_add_members_group',
  'can_join_group',
  'can_leave_group',
  'can_manage_group',
  'can_mention_group',
  'can_remove_members_group',
] as const;
export type GroupSettingName = (typeof GROUP_SETTING_NAMES)[number];

/** What a setting may hold, and its default (Zulip's NamedUserGroup.GROUP_PERMISSION_SETTINGS). */
export interface SettingConfig {
  /** May the value be `role:everyone`? When not, guests never hold the permission. */
  allowEveryone: boolean;
  /** System groups the value may never be (`role:internet` for every setting). */
  forbidden: readonly SystemGroupName[];
  /** A new group's value: a system group, or an anonymous group of its creator. */
  default: SystemGroupName | 'group_creator';
}

export const GROUP_SETTING_CONFIGS: Record<GroupSettingName, SettingConfig> = {
  can_add_members_group: { allowEveryone: false, forbidden: ['role:internet', 'role:everyone'], default: 'group_creator' },
  can_join_group: { allowEveryone: false, forbidden: ['role:internet', 'role:everyone'], default: 'role:nobody' },
  can_leave_group: { allowEveryone: true, forbidden: ['role:internet'], default: 'role:everyone' },
  can_manage_group: { allowEveryone: false, forbidden: ['role:internet', 'role:everyone'], default: 'group_creator' },
  // The spec forbids role:owners here as well (older Zulip's allow_owners_group=False).
  can_mention_group: { allowEveryone: true, forbidden: ['role:internet', 'role:owners'], default: 'role:everyone' },
  can_remove_members_group: { allowEveryone: false, forbidden: ['role:internet', 'role:everyone'], default: 'role:nobody' },
};

/** A value as a client sends it: a group id or an anonymous group. */
export type GroupSettingInput = number | { direct_members: number[]; direct_subgroups: number[] };
/** An update as PATCH sends it. */
export interface GroupSettingUpdate {
  new: GroupSettingInput;
  old?: GroupSettingInput;
}

/** What checking a value needs to know of the organization. */
export interface SettingFacts {
  groups: GroupLookup;
  /** Is the user an active user of the organization? */
  isActiveUser(userId: number): boolean;
  nobodyGroupId: number;
}

/** Zulip's parse_group_setting_value: one subgroup and no members is that group; nothing is `role:nobody`. */
export function normalizeSettingValue(value: GroupSettingInput, nobodyGroupId: number): GroupSettingValue {
  if (typeof value === 'number') return value;
  if (value.direct_members.length === 0 && value.direct_subgroups.length === 1) return value.direct_subgroups[0]!;
  if (value.direct_members.length === 0 && value.direct_subgroups.length === 0) return nobodyGroupId;
  const unique = (ids: number[]) => [...new Set(ids)].sort((a, b) => a - b);
  return { direct_members: unique(value.direct_members), direct_subgroups: unique(value.direct_subgroups) };
}

/** A group a value may name: it exists and is not deactivated. */
function usableGroup(id: number, groups: GroupLookup): GroupRecord {
  const group = groups.get(id);
  if (!group) throw badRequest('Invalid user group');
  if (group.deactivated) throw badRequest('User group is deactivated.');
  return group;
}

/**
 * Checks a value for a setting and returns it in normal form, or throws Zulip's error: an unknown
 * or deactivated group, a system group the setting may not hold, an unknown or deactivated user.
 */
export function checkSettingValue(name: GroupSettingName, input: GroupSettingInput, facts: SettingFacts): GroupSettingValue {
  return checkGroupSettingValue(name, GROUP_SETTING_CONFIGS[name].forbidden, input, facts);
}

/** `checkSettingValue` for any group-valued setting (a user group's, a channel's, the organization's), given the system groups it may not hold. */
export function checkGroupSettingValue(name: string, forbidden: readonly string[], input: GroupSettingInput, facts: SettingFacts): GroupSettingValue {
  const value = normalizeSettingValue(input, facts.nobodyGroupId);
  if (typeof value === 'number') {
    const group = usableGroup(value, facts.groups);
    if (group.isSystemGroup && forbidden.includes(group.name)) {
      throw badRequest(`'${name}' setting cannot be set to '${group.name}' group.`);
    }
    return value;
  }
  for (const userId of value.direct_members) if (!facts.isActiveUser(userId)) throw badRequest(`Invalid user ID: ${userId}`);
  for (const groupId of value.direct_subgroups) {
    if (!facts.groups.get(groupId)) throw badRequest(`Invalid user group ID: ${groupId}`);
    usableGroup(groupId, facts.groups);
  }
  return value;
}

/** The value as the API shows it: anonymous groups list active members only. */
export function settingValueForApi(value: GroupSettingValue, isActiveUser: (userId: number) => boolean): GroupSettingValue {
  if (typeof value === 'number') return value;
  return { direct_members: value.direct_members.filter(isActiveUser), direct_subgroups: [...value.direct_subgroups] };
}

/** Zulip's are_both_group_setting_values_equal: same group, or the same members and subgroups in any order. */
export function sameSettingValue(a: GroupSettingValue, b: GroupSettingValue): boolean {
  if (typeof a === 'number' || typeof b === 'number') return a === b;
  const same = (x: number[], y: number[]) => {
    const left = new Set(x);
    const right = new Set(y);
    return left.size === right.size && [...left].every((id) => right.has(id));
  };
  return same(a.direct_members, b.direct_members) && same(a.direct_subgroups, b.direct_subgroups);
}

/**
 * An update `{new, old}` against the current value (as the API shows it): throws when `old` is
 * given and differs (nothing changes); returns the new value in normal form, or undefined when
 * it is the current one.
 */
export function plannedSettingChange(update: GroupSettingUpdate, current: GroupSettingValue, nobodyGroupId: number): GroupSettingValue | undefined {
  if (update.old !== undefined && !sameSettingValue(normalizeSettingValue(update.old, nobodyGroupId), current)) {
    throw new ApiError('EXPECTATION_MISMATCH', "'old' value does not match the expected value.");
  }
  const next = normalizeSettingValue(update.new, nobodyGroupId);
  return sameSettingValue(next, current) ? undefined : next;
}

/** Does the value name the group, itself or as a subgroup of an anonymous group? */
export function settingUsesGroup(value: GroupSettingValue | undefined, groupId: number): boolean {
  if (value === undefined) return false;
  return typeof value === 'number' ? value === groupId : value.direct_subgroups.includes(groupId);
}

/**
 * A group's setting: the stored value, else the default — `role:nobody` for system groups, the
 * setting's default for user groups (records written before the settings existed have none).
 */
export function groupSettingValue(group: GroupRecord, name: GroupSettingName, systemGroups: Record<SystemGroupName, number>): GroupSettingValue {
  const stored = group.settings[name];
  if (stored !== undefined) return stored;
  if (group.isSystemGroup) return systemGroups['role:nobody'];
  const fallback = GROUP_SETTING_CONFIGS[name].default;
  if (fallback !== 'group_creator') return systemGroups[fallback];
  return group.creatorId === null ? systemGroups['role:nobody'] : { direct_members: [group.creatorId], direct_subgroups: [] };
}

/** A new group's settings: those given, and the defaults for the rest. */
export function initialGroupSettings(
  given: Partial<Record<GroupSettingName, GroupSettingValue>>,
  systemGroups: Record<SystemGroupName, number>,
  creatorId: number,
): Record<GroupSettingName, GroupSettingValue> {
  const settings = {} as Record<GroupSettingName, GroupSettingValue>;
  for (const name of GROUP_SETTING_NAMES) {
    const fallback = GROUP_SETTING_CONFIGS[name].default;
    settings[name] = given[name] ?? (fallback === 'group_creator' ? { direct_members: [creatorId], direct_subgroups: [] } : systemGroups[fallback]);
  }
  return settings;
}
