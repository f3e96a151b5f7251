/**
 * Unit tests of the one permission resolver (domain/group-permissions.ts) and of every user-group
 * permission built on it: for each, a case allowed and a case refused.
 */
import { test } from 'tap';
import {
  holdsGroupPermission,
  holdsRealmSetting,
  mayAddMembers,
  mayCreateGroup,
  mayMentionGroup,
  mayRemoveMembers,
  mayUpdateGroup,
} from '../../src/domain/group-permissions.js';
import type { GroupRecord } from '../../src/domain/groups.js';
import { inRealmGroupSetting, mayMentionManyUsers, mayPostToChannel } from '../../src/domain/permissions.js';
import { checkSubgroupsToAdd, deactivationObjections } from '../../src/domain/user-groups.js';
import { ApiError } from '../../src/domain/errors.js';
import { admin, directory, guest, member, moderator, otherMember, owner, realmWith, record, sys } from '../helpers/group-fixtures.js';

const INSUFFICIENT = { code: 'BAD_REQUEST', msg: 'Insufficient permission' };
const INNER = 30;
const OUTER = 31;
/** A group whose every setting names one person or group, so each can be allowed and refused. */
const TEAM = 32;
const team: GroupRecord = record(TEAM, 'team', [member.id], [], {
  settings: {
    can_manage_group: { direct_members: [owner.id], direct_subgroups: [] },
    can_add_members_group: { direct_members: [otherMember.id], direct_subgroups: [] },
    can_join_group: sys('role:members'),
    can_leave_group: sys('role:everyone'),
    can_remove_members_group: sys('role:moderators'),
    can_mention_group: INNER,
  },
});
const groups = directory([record(INNER, 'inner', [otherMember.id]), record(OUTER, 'outer', [], [INNER]), team]);
const realm = realmWith();

test('the resolver: members through subgroups, anonymous values, guests where everyone is not allowed', async (t) => {
  t.ok(holdsGroupPermission(otherMember, OUTER, groups), 'through a subgroup');
  t.notOk(holdsGroupPermission(member, OUTER, groups), 'not a member');
  t.ok(holdsGroupPermission(member, { direct_members: [member.id], direct_subgroups: [] }, groups), 'a direct member of an anonymous value');
  t.ok(holdsGroupPermission(otherMember, { direct_members: [], direct_subgroups: [OUTER] }, groups), 'a member of its subgroup');
  t.notOk(holdsGroupPermission(member, undefined, groups), 'no value gives nothing');
  t.ok(holdsGroupPermission(admin, sys('role:moderators'), groups), 'role hierarchy: administrators are moderators');
  t.notOk(holdsGroupPermission(member, sys('role:moderators'), groups));
  t.ok(holdsGroupPermission(guest, sys('role:everyone'), groups), 'guests are everyone');
  t.notOk(holdsGroupPermission(guest, sys('role:everyone'), groups, { allowEveryone: false }), 'unless the setting may not be everyone');
  t.notOk(holdsGroupPermission(owner, sys('role:nobody'), groups));
});

test('organization settings through the same resolver', async (t) => {
  t.ok(holdsRealmSetting(owner, realm, 'can_manage_all_groups', groups), 'owners manage all groups by default');
  t.notOk(holdsRealmSetting(admin, realm, 'can_manage_all_groups', groups));
  const everyoneManages = realmWith({ can_manage_all_groups: sys('role:everyone') });
  t.notOk(holdsRealmSetting(guest, everyoneManages, 'can_manage_all_groups', groups), 'never guests');
  t.ok(inRealmGroupSetting(member, realmWith({ can_mention_many_users_group: OUTER }), 'can_mention_many_users_group', groups) === false);
  t.ok(mayMentionManyUsers(otherMember, realmWith({ can_mention_many_users_group: OUTER }), groups), 'a user group as an organization setting');
  t.notOk(mayMentionManyUsers(member, realm, groups), 'administrators by default');
});

test('can_create_groups', async (t) => {
  t.equal(mayCreateGroup(member, realm, groups), null);
  t.same(mayCreateGroup(guest, realm, groups), INSUFFICIENT);
  t.same(mayCreateGroup(member, realmWith({ can_create_groups: sys('role:moderators') }), groups), INSUFFICIENT);
});

test('can_manage_group and can_manage_all_groups', async (t) => {
  t.equal(mayUpdateGroup(owner, team, 'can_manage_group', realm, groups), null, 'owner: can_manage_all_groups (and the setting)');
  t.equal(mayUpdateGroup(admin, team, 'can_manage_group', realmWith({ can_manage_all_groups: sys('role:administrators') }), groups), null, 'can_manage_all_groups alone');
  t.same(mayUpdateGroup(admin, team, 'can_manage_group', realm, groups), INSUFFICIENT);
  const managed = { ...team, settings: { ...team.settings, can_manage_group: { direct_members: [member.id], direct_subgroups: [] } } };
  t.equal(mayUpdateGroup(member, managed, 'can_manage_group', realm, groups), null, 'can_manage_group alone');
  t.equal(mayUpdateGroup(member, managed, 'can_remove_members_group', realm, groups), null, 'managing gives every permission');
  t.same(mayUpdateGroup(owner, record(99, 'role:members', [], [], { isSystemGroup: true }), 'can_manage_group', realm, groups), INSUFFICIENT, 'system groups never');
});

test('can_add_members_group and can_join_group', async (t) => {
  t.equal(mayAddMembers(otherMember, team, [moderator.id], realm, groups), null, 'can_add_members_group adds others');
  t.same(mayAddMembers(member, team, [moderator.id], realm, groups), INSUFFICIENT);
  t.equal(mayAddMembers(moderator, team, [moderator.id], realm, groups), null, 'can_join_group: members join');
  t.same(mayAddMembers(guest, team, [guest.id], realm, groups), INSUFFICIENT, 'guests are not members');
  t.same(mayAddMembers(moderator, team, [moderator.id, member.id], realm, groups), INSUFFICIENT, 'joining is oneself alone');
});

test('can_leave_group and can_remove_members_group', async (t) => {
  t.equal(mayRemoveMembers(member, team, [member.id], realm, groups), null, 'can_leave_group: everyone leaves');
  const noLeaving = { ...team, settings: { ...team.settings, can_leave_group: sys('role:nobody') } };
  t.same(mayRemoveMembers(member, noLeaving, [member.id], realm, groups), INSUFFICIENT);
  t.equal(mayRemoveMembers(moderator, team, [member.id], realm, groups), null, 'can_remove_members_group: moderators');
  t.same(mayRemoveMembers(otherMember, team, [member.id], realm, groups), INSUFFICIENT);
});

test('can_mention_group', async (t) => {
  t.equal(mayMentionGroup(otherMember, team, realm, groups), null, 'a member of the group the setting names');
  t.same(mayMentionGroup(member, team, realm, groups), { code: 'BAD_REQUEST', msg: "You are not allowed to mention user group 'team'." });
  const open = { ...team, settings: { ...team.settings, can_mention_group: sys('role:everyone') } };
  t.equal(mayMentionGroup({ ...member, isSystemBot: true }, open, realm, groups), null, 'everyone: the system bots too');
  const legacy = record(40, 'legacy', [member.id]);
  t.equal(mayMentionGroup(guest, legacy, realm, groups), null, 'a record without settings has the defaults: everyone may mention it');
  t.same(mayUpdateGroup(member, legacy, 'can_manage_group', realm, groups), INSUFFICIENT, 'and no creator to manage it');
  t.same(mayMentionGroup({ ...otherMember, isSystemBot: true }, team, realm, groups), { code: 'BAD_REQUEST', msg: "You are not allowed to mention user group 'team'." });
});

test('channel settings through the same resolver', async (t) => {
  const channel = { id: 1, name: 'c', description: '', renderedDescription: '', inviteOnly: false, isWebPublic: false, historyPublicToSubscribers: true, isDefault: false, isArchived: false, dateCreated: 0, creatorId: null, recipientId: 1, firstMessageId: null, messageRetentionDays: null, topicsPolicy: 'inherit' as const, settings: { can_send_message_group: OUTER } };
  const facts = { subscribed: true, ownerSubscribed: false };
  t.equal(mayPostToChannel({ ...otherMember, botOwnerId: null, isSystemBot: false }, channel, groups, facts), null, 'a user group as can_send_message_group');
  t.same(mayPostToChannel({ ...member, botOwnerId: null, isSystemBot: false }, channel, groups, facts), { code: 'BAD_REQUEST', msg: 'You do not have permission to post in this channel.' });
});

test('subgroup cycles and deactivation objections', async (t) => {
  const error = (run: () => void) => {
    try {
      run();
    } catch (e) {
      return (e as ApiError).message;
    }
    return undefined;
  };
  t.equal(error(() => checkSubgroupsToAdd(INNER, [OUTER], groups)), `User group ${INNER} is already a subgroup of one of the passed subgroups.`);
  t.equal(error(() => checkSubgroupsToAdd(TEAM, [TEAM], groups)), `User group ${TEAM} is already a subgroup of one of the passed subgroups.`);
  t.equal(error(() => checkSubgroupsToAdd(TEAM, [OUTER], groups)), undefined);
  t.same(deactivationObjections(INNER, { groups: groups.all(), channels: [], realmSettings: [['can_create_groups', INNER]] }), [
    { type: 'subgroup', supergroup_ids: [OUTER] },
    { type: 'user_group', group_id: TEAM, settings: ['can_mention_group'] },
    { type: 'realm', settings: ['can_create_groups'] },
  ]);
  t.same(deactivationObjections(TEAM, { groups: groups.all(), channels: [], realmSettings: [] }), [], 'nothing uses it');
});
