/**
 * The one permission resolver: "does user X hold the permission a group-setting value gives?",
 * subgroups followed. Every group-valued setting (the organization's, a channel's, a user
 * group's) is answered by `holdsGroupPermission`; the rules of user groups built on it are here.
 */
import { GROUP_SETTING_CONFIGS, groupSettingValue, type GroupSettingName } from './group-settings.js';
import { settingIncludes, type GroupLookup, type GroupRecord, type GroupSettingValue } from './groups.js';
import type { Refusal } from './refusal.js';
import { realmGroupSetting, type RealmRecord } from './realm.js';
import { isGuest, type Role } from './roles.js';

/** The acting user, as far as the resolver looks at them. */
export interface PermissionHolder {
  id: number;
  role: Role;
}

export interface ResolveOptions {
  /**
   * Whether the setting may be `role:everyone`. When it may not (Zulip's allow_everyone_group
   * false), guests never hold it, whatever the value says.
   */
  allowEveryone?: boolean;
}

/** Does `user` hold the permission `value` gives? An absent value gives it to nobody. */
export function holdsGroupPermission(user: PermissionHolder, value: GroupSettingValue | undefined, groups: GroupLookup, options: ResolveOptions = {}): boolean {
  if (value === undefined) return false;
  if (options.allowEveryone === false && isGuest(user.role)) return false;
  return settingIncludes(user.id, value, groups);
}

/** Does `user` hold the user group's setting `name`? */
export function holdsGroupSetting(user: PermissionHolder, group: GroupRecord, name: GroupSettingName, realm: RealmRecord, groups: GroupLookup): boolean {
  const value = groupSettingValue(group, name, realm.systemGroups);
  return holdsGroupPermission(user, value, groups, { allowEveryone: GROUP_SETTING_CONFIGS[name].allowEveryone });
}

/** Organization settings that may never be `role:everyone`: guests never hold them. */
const REALM_SETTINGS_WITHOUT_GUESTS = new Set(['can_manage_all_groups', 'can_create_groups', 'can_create_bots_group', 'can_create_write_only_bots_group']);

/** Does `user` hold the organization's group setting `name`? */
export function holdsRealmSetting(user: PermissionHolder, realm: RealmRecord, name: string, groups: GroupLookup): boolean {
  return holdsGroupPermission(user, realmGroupSetting(realm, name), groups, { allowEveryone: !REALM_SETTINGS_WITHOUT_GUESTS.has(name) });
}

const INSUFFICIENT: Refusal = { code: 'BAD_REQUEST', msg: 'Insufficient permission' };

/** May `user` create user groups (`can_create_groups`)? */
export function mayCreateGroup(user: PermissionHolder, realm: RealmRecord, groups: GroupLookup): Refusal | null {
  return holdsRealmSetting(user, realm, 'can_create_groups', groups) ? null : INSUFFICIENT;
}

/**
 * Zulip's access_user_group_for_update: system groups are never edited; whoever may manage all
 * groups or this group may do everything; otherwise the setting that governs the change.
 */
export function mayUpdateGroup(user: PermissionHolder, group: GroupRecord, permission: GroupSettingName, realm: RealmRecord, groups: GroupLookup): Refusal | null {
  if (group.isSystemGroup) return INSUFFICIENT;
  if (holdsRealmSetting(user, realm, 'can_manage_all_groups', groups)) return null;
  if (holdsGroupSetting(user, group, 'can_manage_group', realm, groups)) return null;
  if (permission !== 'can_manage_group' && holdsGroupSetting(user, group, permission, realm, groups)) return null;
  return INSUFFICIENT;
}

/** Adding members: oneself by `can_join_group` (or `can_add_members_group`), others by `can_add_members_group`. */
export function mayAddMembers(user: PermissionHolder, group: GroupRecord, userIds: readonly number[], realm: RealmRecord, groups: GroupLookup): Refusal | null {
  const onlySelf = userIds.length === 1 && userIds[0] === user.id;
  if (onlySelf && mayUpdateGroup(user, group, 'can_join_group', realm, groups) === null) return null;
  return mayUpdateGroup(user, group, 'can_add_members_group', realm, groups);
}

/** Removing members: oneself by `can_leave_group` (or `can_remove_members_group`), others by `can_remove_members_group`. */
export function mayRemoveMembers(user: PermissionHolder, group: GroupRecord, userIds: readonly number[], realm: RealmRecord, groups: GroupLookup): Refusal | null {
  const onlySelf = userIds.length === 1 && userIds[0] === user.id;
  if (onlySelf && mayUpdateGroup(user, group, 'can_leave_group', realm, groups) === null) return null;
  return mayUpdateGroup(user, group, 'can_remove_members_group', realm, groups);
}

/**
 * May `sender` mention the group (`@*group*`)? A group whose `can_mention_group` is everyone may
 * be mentioned by anyone, the system bots included; otherwise the sender must hold the setting.
 */
export function mayMentionGroup(sender: PermissionHolder & { isSystemBot?: boolean }, group: GroupRecord, realm: RealmRecord, groups: GroupLookup): Refusal | null {
  if (groupSettingValue(group, 'can_mention_group', realm.systemGroups) === realm.systemGroups['role:everyone']) return null;
  if (!sender.isSystemBot && holdsGroupSetting(sender, group, 'can_mention_group', realm, groups)) return null;
  return { code: 'BAD_REQUEST', msg: `You are not allowed to mention user group '${group.name}'.` };
}
