/** Unit tests of group-setting values (domain/group-settings.ts): normal form, checks, `{new, old}`, defaults, use. */
import { test } from 'tap';
import { ApiError } from '../../src/domain/errors.js';
import {
  checkSettingValue,
  initialGroupSettings,
  normalizeSettingValue,
  plannedSettingChange,
  sameSettingValue,
  settingUsesGroup,
  settingValueForApi,
} from '../../src/domain/group-settings.js';
import { INACTIVE, directory, isActiveUser, member, otherMember, record, sys, systemGroups } from '../helpers/group-fixtures.js';

const NOBODY = sys('role:nobody');
const TEAM = 20;
const RETIRED = 21;
const groups = directory([record(TEAM, 'team', [member.id]), record(RETIRED, 'retired', [], [], { deactivated: true })]);
const facts = { groups, isActiveUser, nobodyGroupId: NOBODY };
const errorOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return [error.code, error.message];
    throw error;
  }
  return undefined;
};

test('normal form (parse_group_setting_value)', async (t) => {
  t.equal(normalizeSettingValue(7, NOBODY), 7, 'an id stays');
  t.equal(normalizeSettingValue({ direct_members: [], direct_subgroups: [TEAM] }, NOBODY), TEAM, 'one subgroup and no members is that group');
  t.equal(normalizeSettingValue({ direct_members: [], direct_subgroups: [] }, NOBODY), NOBODY, 'nothing is role:nobody');
  t.same(normalizeSettingValue({ direct_members: [5, 4, 5], direct_subgroups: [] }, NOBODY), { direct_members: [4, 5], direct_subgroups: [] }, 'sorted, without repeats');
  t.same(normalizeSettingValue({ direct_members: [4], direct_subgroups: [TEAM] }, NOBODY), { direct_members: [4], direct_subgroups: [TEAM] });
});

test('checking a value', async (t) => {
  t.equal(checkSettingValue('can_join_group', sys('role:members'), facts), sys('role:members'));
  t.same(errorOf(() => checkSettingValue('can_manage_group', sys('role:everyone'), facts)), ['BAD_REQUEST', "'can_manage_group' setting cannot be set to 'role:everyone' group."]);
  t.same(errorOf(() => checkSettingValue('can_manage_group', sys('role:internet'), facts)), ['BAD_REQUEST', "'can_manage_group' setting cannot be set to 'role:internet' group."]);
  t.same(errorOf(() => checkSettingValue('can_mention_group', sys('role:owners'), facts)), ['BAD_REQUEST', "'can_mention_group' setting cannot be set to 'role:owners' group."]);
  t.same(errorOf(() => checkSettingValue('can_mention_group', sys('role:internet'), facts)), ['BAD_REQUEST', "'can_mention_group' setting cannot be set to 'role:internet' group."]);
  t.equal(checkSettingValue('can_mention_group', sys('role:everyone'), facts), sys('role:everyone'), 'everyone may mention');
  t.equal(checkSettingValue('can_leave_group', sys('role:everyone'), facts), sys('role:everyone'));
  for (const name of ['can_add_members_group', 'can_join_group', 'can_remove_members_group'] as const) {
    t.same(errorOf(() => checkSettingValue(name, sys('role:everyone'), facts)), ['BAD_REQUEST', `'${name}' setting cannot be set to 'role:everyone' group.`], name);
  }
  t.same(checkSettingValue('can_manage_group', { direct_members: [member.id], direct_subgroups: [sys('role:everyone')] }, facts), { direct_members: [member.id], direct_subgroups: [sys('role:everyone')] }, 'as in Zulip, system groups are checked only as the whole value');
  t.same(errorOf(() => checkSettingValue('can_join_group', 999, facts)), ['BAD_REQUEST', 'Invalid user group']);
  t.same(errorOf(() => checkSettingValue('can_join_group', RETIRED, facts)), ['BAD_REQUEST', 'User group is deactivated.'], 'a deactivated group is no value');
  t.same(errorOf(() => checkSettingValue('can_join_group', { direct_members: [member.id], direct_subgroups: [RETIRED] }, facts)), ['BAD_REQUEST', 'User group is deactivated.']);
  t.same(errorOf(() => checkSettingValue('can_join_group', { direct_members: [member.id], direct_subgroups: [999] }, facts)), ['BAD_REQUEST', 'Invalid user group ID: 999']);
  t.same(errorOf(() => checkSettingValue('can_join_group', { direct_members: [INACTIVE, member.id], direct_subgroups: [] }, facts)), ['BAD_REQUEST', `Invalid user ID: ${INACTIVE}`]);
  t.equal(checkSettingValue('can_join_group', { direct_members: [], direct_subgroups: [TEAM] }, facts), TEAM, 'normalised before it is checked');
});

test('{new, old} updates', async (t) => {
  const current = { direct_members: [member.id, otherMember.id], direct_subgroups: [TEAM] };
  t.equal(plannedSettingChange({ new: TEAM }, current, NOBODY), TEAM, 'without old');
  t.equal(plannedSettingChange({ new: TEAM, old: { direct_members: [otherMember.id, member.id], direct_subgroups: [TEAM] } }, current, NOBODY), TEAM, 'old in any order');
  t.same(errorOf(() => plannedSettingChange({ new: TEAM, old: TEAM }, current, NOBODY)), ['EXPECTATION_MISMATCH', "'old' value does not match the expected value."]);
  t.equal(plannedSettingChange({ new: { direct_members: [otherMember.id, member.id], direct_subgroups: [TEAM] } }, current, NOBODY), undefined, 'the current value is no change');
  t.equal(plannedSettingChange({ new: { direct_members: [], direct_subgroups: [] }, old: { direct_members: [], direct_subgroups: [TEAM] } }, TEAM, NOBODY), NOBODY, 'both sides normalised');
  t.ok(sameSettingValue(5, 5));
  t.notOk(sameSettingValue(5, { direct_members: [], direct_subgroups: [5] }), 'only normal forms compare equal');
});

test('defaults, the API form, and where a group is used', async (t) => {
  const settings = initialGroupSettings({ can_join_group: TEAM }, systemGroups, member.id);
  t.same(settings, {
    can_add_members_group: { direct_members: [member.id], direct_subgroups: [] },
    can_join_group: TEAM,
    can_leave_group: sys('role:everyone'),
    can_manage_group: { direct_members: [member.id], direct_subgroups: [] },
    can_mention_group: sys('role:everyone'),
    can_remove_members_group: NOBODY,
  });
  t.same(settingValueForApi({ direct_members: [member.id, INACTIVE], direct_subgroups: [TEAM] }, isActiveUser), { direct_members: [member.id], direct_subgroups: [TEAM] }, 'inactive members left out');
  t.ok(settingUsesGroup(TEAM, TEAM));
  t.ok(settingUsesGroup({ direct_members: [], direct_subgroups: [TEAM] }, TEAM));
  t.notOk(settingUsesGroup({ direct_members: [TEAM], direct_subgroups: [] }, TEAM), 'a user id is not a group');
  t.notOk(settingUsesGroup(undefined, TEAM));
});
