/**
 * Writes of user groups and the `user_group` events they emit: creating, editing (name,
 * description, settings, reactivation), membership of users and subgroups, deactivating. Every
 * change of a user-defined group passes its actor (actors/user-group.ts) in the same write.
 */
import { userGroupKind, type UserGroupEvent } from '../actors/user-group.js';
import { badRequest } from '../domain/errors.js';
import { mayAddMembers, mayCreateGroup, mayRemoveMembers, mayUpdateGroup } from '../domain/group-permissions.js';
import {
  checkSettingValue,
  GROUP_SETTING_NAMES,
  initialGroupSettings,
  plannedSettingChange,
  settingValueForApi,
  type GroupSettingInput,
  type GroupSettingName,
  type GroupSettingUpdate,
  type SettingFacts,
} from '../domain/group-settings.js';
import type { GroupRecord, GroupSettingValue } from '../domain/groups.js';
import { refusalError } from '../domain/permissions.js';
import { realmGroupSetting, REALM_GROUP_SETTING_DEFAULTS } from '../domain/realm.js';
import { checkGroupName, checkSubgroupsToAdd, checkSubgroupsToRemove, deactivationObjections, groupInUseError } from '../domain/user-groups.js';
import type { UserRecord } from '../domain/users.js';
import { groupObject, groupSettingForApi, isActiveMember, requireGroup, requireMemberOrAdmin } from '../queries/user-groups.js';
import type { Services } from '../services.js';
import { unixSeconds } from '../services.js';
import type { Transaction } from '../store/transaction.js';
import { notifyDirect, silentMention } from './notifications.js';
import { everyone } from './users.js';

export function settingFacts(services: Services): SettingFacts {
  return {
    groups: services.org.groups,
    isActiveUser: (id) => isActiveMember(services, id),
    nobodyGroupId: services.org.realm.systemGroups['role:nobody'],
  };
}

/**
 * Saves a group, passing the change through its actor first: the record's `deactivated` is the
 * state the actor is in afterwards (system groups have no actor: they never change state).
 */
function saveGroup(services: Services, tx: Transaction, group: GroupRecord, event: UserGroupEvent = { type: 'EDIT' }): GroupRecord {
  let saved = group;
  if (!group.isSystemGroup) {
    const snapshot = services.actors.send(userGroupKind, String(group.id), event, tx);
    saved = { ...group, deactivated: snapshot.value === 'deactivated' };
  }
  services.org.groups.save(saved, tx);
  return saved;
}

/** Unknown, deactivated and system-bot ids are Zulip's "Invalid user ID". */
function requireActiveUsers(services: Services, userIds: readonly number[]): number[] {
  for (const id of userIds) if (!isActiveMember(services, id)) throw badRequest(`Invalid user ID: ${id}`);
  return [...new Set(userIds)];
}

/** Names are unique among all groups, deactivated ones included (compared without case, as mentions find them). */
function checkNameFree(services: Services, name: string, exceptId?: number): void {
  const existing = services.org.groups.byName(name);
  if (existing && existing.id !== exceptId) throw badRequest(`User group '${name}' already exists.`);
}

const emitUpdate = (services: Services, tx: Transaction, groupId: number, data: Record<string, unknown>) =>
  tx.emit({ type: 'user_group', op: 'update', group_id: groupId, data }, everyone(services));

export interface NewGroup {
  name: string;
  description: string;
  members: number[];
  subgroups?: number[];
  settings: Partial<Record<GroupSettingName, GroupSettingInput>>;
}

/** POST /user_groups/create: the new group's id. */
export async function createUserGroup(services: Services, actor: UserRecord, request: NewGroup): Promise<number> {
  const { org } = services;
  return services.write((tx) => {
    const refusal = mayCreateGroup(actor, org.realm, org.groups);
    if (refusal) throw refusalError(refusal);
    const members = requireActiveUsers(services, request.members);
    const name = checkGroupName(request.name);
    const facts = settingFacts(services);
    const given: Partial<Record<GroupSettingName, GroupSettingValue>> = {};
    for (const setting of GROUP_SETTING_NAMES) {
      const value = request.settings[setting];
      if (value !== undefined) given[setting] = checkSettingValue(setting, value, facts);
    }
    checkNameFree(services, name);
    const subgroups = [...new Set(request.subgroups ?? [])];
    const id = services.counters.nextRealmId(org.id, 'group', tx);
    const draft: GroupRecord = {
      id,
      name,
      description: request.description,
      isSystemGroup: false,
      directMembers: members,
      directSubgroups: [],
      deactivated: false,
      creatorId: actor.id,
      dateCreated: unixSeconds(services.clock),
      settings: initialGroupSettings(given, org.realm.systemGroups, actor.id),
    };
    // Checked against the directory with the group in it, so a cycle through it is found too.
    org.groups.save(draft, tx);
    checkSubgroupsToAdd(id, subgroups, org.groups);
    const group = saveGroup(services, tx, { ...draft, directSubgroups: subgroups });
    tx.emit({ type: 'user_group', op: 'add', group: groupObject(services, group) }, everyone(services));
    return id;
  });
}

export interface GroupChanges {
  name?: string;
  description?: string;
  deactivated?: boolean;
  settings: Partial<Record<GroupSettingName, GroupSettingUpdate>>;
}

/** PATCH /user_groups/{id}: name, description, settings, and reactivation (`deactivated=false`). */
export async function updateUserGroup(services: Services, actor: UserRecord, groupId: number, changes: GroupChanges): Promise<void> {
  const { org } = services;
  requireMemberOrAdmin(actor);
  const settingsGiven = GROUP_SETTING_NAMES.filter((name) => changes.settings[name] !== undefined);
  if (changes.name === undefined && changes.description === undefined && changes.deactivated === undefined && settingsGiven.length === 0) {
    throw badRequest('No new data supplied');
  }
  await services.write((tx) => {
    let group = requireGroup(services, groupId);
    const refusal = mayUpdateGroup(actor, group, 'can_manage_group', org.realm, org.groups);
    if (refusal) throw refusalError(refusal);
    if (changes.name !== undefined && changes.name !== group.name) {
      const name = checkGroupName(changes.name);
      checkNameFree(services, name, group.id);
      group = saveGroup(services, tx, { ...group, name });
      emitUpdate(services, tx, group.id, { name });
    }
    if (changes.description !== undefined && changes.description !== group.description) {
      group = saveGroup(services, tx, { ...group, description: changes.description });
      emitUpdate(services, tx, group.id, { description: changes.description });
    }
    // `deactivated=true` has no effect: deactivating is POST /user_groups/{id}/deactivate.
    if (changes.deactivated === false && group.deactivated) group = reactivate(services, tx, group);
    const facts = settingFacts(services);
    for (const name of settingsGiven) {
      const current = groupSettingForApi(services, group, name);
      const planned = plannedSettingChange(changes.settings[name]!, current, facts.nobodyGroupId);
      if (planned === undefined) continue;
      const value = checkSettingValue(name, planned, facts);
      group = saveGroup(services, tx, { ...group, settings: { ...group.settings, [name]: value } });
      emitUpdate(services, tx, group.id, { [name]: settingValueForApi(value, facts.isActiveUser) });
    }
  });
}

/**
 * Reactivation: queues that know deactivated groups (`include_deactivated_groups`) get the
 * update; the others, which were told the group was removed, get it again as an `add`
 * (events/queue-filter.ts picks by the capability).
 */
function reactivate(services: Services, tx: Transaction, group: GroupRecord): GroupRecord {
  const active = saveGroup(services, tx, group, { type: 'REACTIVATE' });
  emitUpdate(services, tx, active.id, { deactivated: false });
  tx.emit({ type: 'user_group', op: 'add', group: groupObject(services, active), for_reactivation: true }, everyone(services));
  return active;
}

/** POST /user_groups/{id}/deactivate: refused while the group is in use, with Zulip's objections. */
export async function deactivateUserGroup(services: Services, actor: UserRecord, groupId: number): Promise<void> {
  const { org } = services;
  await services.write((tx) => {
    const group = requireGroup(services, groupId);
    if (group.deactivated) throw badRequest('User group is deactivated.');
    const refusal = mayUpdateGroup(actor, group, 'can_manage_group', org.realm, org.groups);
    if (refusal) throw refusalError(refusal);
    const objections = deactivationObjections(group.id, {
      groups: org.groups.all(),
      channels: org.channels.all(),
      realmSettings: Object.keys(REALM_GROUP_SETTING_DEFAULTS).map((name) => [name, realmGroupSetting(org.realm, name)] as [string, GroupSettingValue]),
    });
    if (objections.length > 0) throw groupInUseError(objections);
    saveGroup(services, tx, group, { type: 'DEACTIVATE' });
    emitUpdate(services, tx, group.id, { deactivated: true });
    tx.emit({ type: 'user_group', op: 'remove', group_id: group.id }, everyone(services));
  });
}

/**
 * Adds users to a group inside the caller's write, without permission checks (the caller has
 * made them: invitations with `group_ids`, for instance). Users already direct members are
 * skipped; unknown or deactivated users are refused. Emits `add_members` when anyone joined.
 */
export function addGroupMembers(services: Services, tx: Transaction, groupId: number, userIds: readonly number[]): void {
  const group = requireGroup(services, groupId);
  if (group.isSystemGroup) throw badRequest('Insufficient permission');
  const joining = requireActiveUsers(services, userIds).filter((id) => !group.directMembers.includes(id));
  if (joining.length === 0) return;
  saveGroup(services, tx, { ...group, directMembers: [...group.directMembers, ...joining] });
  tx.emit({ type: 'user_group', op: 'add_members', group_id: group.id, user_ids: joining }, everyone(services));
}

/** Removes users from a group inside the caller's write, without permission checks; those not direct members are skipped. */
export function removeGroupMembers(services: Services, tx: Transaction, groupId: number, userIds: readonly number[]): void {
  const group = requireGroup(services, groupId);
  if (group.isSystemGroup) throw badRequest('Insufficient permission');
  const leaving = [...new Set(userIds)].filter((id) => group.directMembers.includes(id));
  if (leaving.length === 0) return;
  saveGroup(services, tx, { ...group, directMembers: group.directMembers.filter((id) => !leaving.includes(id)) });
  tx.emit({ type: 'user_group', op: 'remove_members', group_id: group.id, user_ids: leaving }, everyone(services));
}

export interface MembershipChanges {
  add?: number[];
  delete?: number[];
  addSubgroups?: number[];
  deleteSubgroups?: number[];
}

function addMembersAs(services: Services, tx: Transaction, actor: UserRecord, groupId: number, userIds: number[]): void {
  const { org } = services;
  const group = requireGroup(services, groupId);
  const refusal = mayAddMembers(actor, group, userIds, org.realm, org.groups);
  if (refusal) throw refusalError(refusal);
  const users = requireActiveUsers(services, userIds);
  for (const id of users) if (group.directMembers.includes(id)) throw badRequest(`User ${id} is already a member of this group`);
  addGroupMembers(services, tx, groupId, users);
  tellMembers(services, tx, actor, group, users, 'added you to');
}

/**
 * Zulip's notify_for_user_group_subscription_changes: the notification bot tells each person
 * someone else added or removed (bots are not told).
 */
function tellMembers(services: Services, tx: Transaction, actor: UserRecord, group: GroupRecord, userIds: number[], what: 'added you to' | 'removed you from'): void {
  for (const id of userIds) {
    const user = services.org.users.get(id);
    if (!user || id === actor.id || user.isBot) continue;
    notifyDirect(services, tx, user, `${silentMention(actor)} ${what} the group @_*${group.name}*.`);
  }
}

function removeMembersAs(services: Services, tx: Transaction, actor: UserRecord, groupId: number, userIds: number[]): void {
  const { org } = services;
  const users = requireActiveUsers(services, userIds);
  const group = requireGroup(services, groupId);
  const refusal = mayRemoveMembers(actor, group, userIds, org.realm, org.groups);
  if (refusal) throw refusalError(refusal);
  for (const id of users) if (!group.directMembers.includes(id)) throw badRequest(`There is no member '${id}' in this user group`);
  removeGroupMembers(services, tx, groupId, users);
  tellMembers(services, tx, actor, group, users, 'removed you from');
}

function addSubgroupsAs(services: Services, tx: Transaction, actor: UserRecord, groupId: number, subgroupIds: number[]): void {
  const { org } = services;
  const group = requireGroup(services, groupId);
  const refusal = mayUpdateGroup(actor, group, 'can_add_members_group', org.realm, org.groups);
  if (refusal) throw refusalError(refusal);
  const adding = [...new Set(subgroupIds)];
  checkSubgroupsToAdd(group.id, adding, org.groups);
  saveGroup(services, tx, { ...group, directSubgroups: [...group.directSubgroups, ...adding] });
  tx.emit({ type: 'user_group', op: 'add_subgroups', group_id: group.id, direct_subgroup_ids: adding }, everyone(services));
}

function removeSubgroupsAs(services: Services, tx: Transaction, actor: UserRecord, groupId: number, subgroupIds: number[]): void {
  const { org } = services;
  const group = requireGroup(services, groupId);
  const refusal = mayUpdateGroup(actor, group, 'can_manage_group', org.realm, org.groups);
  if (refusal) throw refusalError(refusal);
  const removing = [...new Set(subgroupIds)];
  checkSubgroupsToRemove(group.id, removing, org.groups);
  saveGroup(services, tx, { ...group, directSubgroups: group.directSubgroups.filter((id) => !removing.includes(id)) });
  tx.emit({ type: 'user_group', op: 'remove_subgroups', group_id: group.id, direct_subgroup_ids: removing }, everyone(services));
}

/** POST /user_groups/{id}/members: users and subgroups in one write, in Zulip's order. */
export async function updateGroupMembers(services: Services, actor: UserRecord, groupId: number, changes: MembershipChanges): Promise<void> {
  requireMemberOrAdmin(actor);
  const nonEmpty = (list?: number[]): list is number[] => list !== undefined && list.length > 0;
  if (!nonEmpty(changes.add) && !nonEmpty(changes.delete) && !nonEmpty(changes.addSubgroups) && !nonEmpty(changes.deleteSubgroups)) {
    throw badRequest('Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".');
  }
  await services.write((tx) => {
    if (nonEmpty(changes.add)) addMembersAs(services, tx, actor, groupId, changes.add);
    if (nonEmpty(changes.delete)) removeMembersAs(services, tx, actor, groupId, changes.delete);
    if (nonEmpty(changes.addSubgroups)) addSubgroupsAs(services, tx, actor, groupId, changes.addSubgroups);
    if (nonEmpty(changes.deleteSubgroups)) removeSubgroupsAs(services, tx, actor, groupId, changes.deleteSubgroups);
  });
}

/** POST /user_groups/{id}/subgroups */
export async function updateSubgroups(services: Services, actor: UserRecord, groupId: number, changes: { add?: number[]; delete?: number[] }): Promise<void> {
  requireMemberOrAdmin(actor);
  const nonEmpty = (list?: number[]): list is number[] => list !== undefined && list.length > 0;
  if (!nonEmpty(changes.add) && !nonEmpty(changes.delete)) throw badRequest('Nothing to do. Specify at least one of "add" or "delete".');
  await services.write((tx) => {
    if (nonEmpty(changes.add)) addSubgroupsAs(services, tx, actor, groupId, changes.add);
    if (nonEmpty(changes.delete)) removeSubgroupsAs(services, tx, actor, groupId, changes.delete);
  });
}
