/**
 * Black-box tests of creating and reading user groups: POST /user_groups/create (names, members,
 * subgroups, the six settings and their defaults), GET /user_groups and the membership reads,
 * system groups, the `add` event on another user's queue, register's realm_user_groups, restart.
 */
import { test } from 'tap';
import { clientFor } from '../helpers/server.js';
import { register, take } from '../helpers/events.js';
import { world } from '../helpers/world.js';
import { CORDELIA, DESDEMONA, HAMLET, IAGO, OTHELLO, POLONIUS, PROSPERO, SHIVA } from '../helpers/demo-ids.js';
import { createGroup, deactivateUser, groupById, groupsByName, refused, systemGroupId } from '../helpers/user-groups.js';
import { error } from '../helpers/messages.js';

const SYSTEM_NAMES = ['role:owners', 'role:administrators', 'role:moderators', 'role:fullmembers', 'role:members', 'role:everyone', 'role:internet', 'role:nobody'];

test('POST /user_groups/create', async (t) => {
  t.test('creates a group with Zulip defaults and returns its id', async (t) => {
    const { hamlet } = await world(t);
    const before = Date.now() / 1000;
    const id = await createGroup(hamlet, 'backend', [OTHELLO, HAMLET, OTHELLO]);
    const group = await groupById(hamlet, id);
    const everyone = await systemGroupId(hamlet, 'role:everyone');
    const nobody = await systemGroupId(hamlet, 'role:nobody');
    t.match(group, {
      id, name: 'backend', description: 'backend people', members: [HAMLET, OTHELLO], direct_subgroup_ids: [],
      is_system_group: false, creator_id: HAMLET, deactivated: false,
      can_add_members_group: { direct_members: [HAMLET], direct_subgroups: [] },
      can_manage_group: { direct_members: [HAMLET], direct_subgroups: [] },
      can_join_group: nobody, can_leave_group: everyone, can_mention_group: everyone, can_remove_members_group: nobody,
    });
    t.ok(group.date_created >= Math.floor(before) - 1, 'date_created in unix seconds');
  });

  t.test('settings given as ids or anonymous groups, normalised', async (t) => {
    const { hamlet } = await world(t);
    const moderators = await systemGroupId(hamlet, 'role:moderators');
    const members = await systemGroupId(hamlet, 'role:members');
    const nobody = await systemGroupId(hamlet, 'role:nobody');
    const id = await createGroup(hamlet, 'settings', [], {
      can_join_group: members,
      can_leave_group: { direct_members: [], direct_subgroups: [moderators] },
      can_manage_group: { direct_members: [], direct_subgroups: [] },
      can_add_members_group: { direct_members: [OTHELLO, HAMLET], direct_subgroups: [moderators] },
    });
    const group = await groupById(hamlet, id);
    t.equal(group.can_join_group, members);
    t.equal(group.can_leave_group, moderators, 'one subgroup and no members is that group');
    t.equal(group.can_manage_group, nobody, 'nothing is role:nobody');
    t.same(group.can_add_members_group, { direct_members: [HAMLET, OTHELLO], direct_subgroups: [moderators] });
  });

  t.test('subgroups at creation, whatever the creator may do with the group', async (t) => {
    const { hamlet } = await world(t);
    const inner = await createGroup(hamlet, 'inner', [OTHELLO]);
    const outer = await createGroup(hamlet, 'outer', [HAMLET], { subgroups: [inner], can_add_members_group: await systemGroupId(hamlet, 'role:nobody'), can_manage_group: await systemGroupId(hamlet, 'role:nobody') });
    t.same((await groupById(hamlet, outer)).direct_subgroup_ids, [inner]);
    t.same((await hamlet.get(`/user_groups/${outer}/members`)).body.members, [HAMLET, OTHELLO]);
  });

  t.test('name rules', async (t) => {
    const { hamlet } = await world(t);
    const create = (name: string) => hamlet.post('/user_groups/create', { name, description: '', members: [] });
    t.same(error(await create('   ')), refused("User group name can't be empty!"));
    t.same(error(await create('x'.repeat(101))), refused('User group name cannot exceed 100 characters.'));
    t.equal((await create('y'.repeat(100))).status, 200, '100 characters are fine');
    for (const prefix of ['@', 'role:', 'user:', 'stream:', 'channel:']) {
      t.same(error(await create(`${prefix}team`)), refused(`User group name cannot start with '${prefix}'.`));
    }
    t.same(error(await create('role:members')), refused("User group name cannot start with 'role:'."), "a system group's name");
    await createGroup(hamlet, 'support', []);
    t.same(error(await create('support')), refused("User group 'support' already exists."));
    t.same(error(await create('Support')), refused("User group 'Support' already exists."), 'names differ by more than case');
  });

  t.test('a deactivated group keeps its name', async (t) => {
    const { hamlet } = await world(t);
    const id = await createGroup(hamlet, 'old team', []);
    t.equal((await hamlet.post(`/user_groups/${id}/deactivate`)).status, 200);
    t.same(error(await hamlet.post('/user_groups/create', { name: 'old team', description: '', members: [] })), refused("User group 'old team' already exists."));
  });

  t.test('members and subgroups must exist and be active', async (t) => {
    const { hamlet, server } = await world(t);
    await deactivateUser(server, CORDELIA);
    const create = (params: Record<string, unknown>) => hamlet.post('/user_groups/create', { name: 'team', description: '', members: [], ...params });
    t.same(error(await create({ members: [HAMLET, 500] })), refused('Invalid user ID: 500'));
    t.same(error(await create({ members: [CORDELIA] })), refused(`Invalid user ID: ${CORDELIA}`), 'a deactivated user');
    t.same(error(await create({ subgroups: [999] })), refused('Invalid user group ID: 999'));
    const gone = await createGroup(hamlet, 'gone', []);
    await hamlet.post(`/user_groups/${gone}/deactivate`);
    t.same(error(await create({ subgroups: [gone] })), refused('User group is deactivated.'));
    t.same(error(await create({ can_join_group: gone })), refused('User group is deactivated.'), 'nor as a setting');
    t.same(error(await create({ can_join_group: 999 })), refused('Invalid user group'));
    t.same(error(await create({ can_join_group: { direct_members: [500], direct_subgroups: [] } })), refused('Invalid user ID: 500'));
    t.same(error(await create({ can_join_group: { direct_members: [HAMLET], direct_subgroups: [999] } })), refused('Invalid user group ID: 999'));
    t.same(error(await create({ members: 'nope' })), [400, 'BAD_REQUEST', 'members is not valid JSON']);
    t.same(error(await create({ can_join_group: 'x' })), [400, 'BAD_REQUEST', 'can_join_group is not valid JSON']);
    t.equal(error(await create({ can_join_group: { new: 1 } }))[0], 400, 'the update form is not a value');
    t.notOk((await groupsByName(hamlet)).team, 'nothing was created');
  });

  t.test('settings refuse the system groups they may not hold', async (t) => {
    const { hamlet } = await world(t);
    const id = (name: string) => systemGroupId(hamlet, name);
    const cases: [string, string][] = [
      ['can_manage_group', 'role:internet'], ['can_manage_group', 'role:everyone'],
      ['can_mention_group', 'role:internet'], ['can_mention_group', 'role:owners'],
      ['can_add_members_group', 'role:everyone'], ['can_join_group', 'role:everyone'],
      ['can_remove_members_group', 'role:everyone'], ['can_leave_group', 'role:internet'],
    ];
    for (const [setting, group] of cases) {
      const response = await hamlet.post('/user_groups/create', { name: `t-${setting}-${group}`, description: '', members: [], [setting]: await id(group) });
      t.same(error(response), refused(`'${setting}' setting cannot be set to '${group}' group.`), `${setting} = ${group}`);
    }
    t.equal((await hamlet.post('/user_groups/create', { name: 'mention-everyone', description: '', members: [], can_mention_group: await id('role:everyone') })).status, 200);
    t.equal((await hamlet.post('/user_groups/create', { name: 'leave-everyone', description: '', members: [], can_leave_group: await id('role:everyone') })).status, 200);
  });

  t.test('who may create groups (can_create_groups, members by default)', async (t) => {
    const { polonius, othello } = await world(t);
    t.same(error(await polonius.post('/user_groups/create', { name: 'guests', description: '', members: [] })), refused('Insufficient permission'));
    t.equal((await othello.post('/user_groups/create', { name: 'members', description: '', members: [] })).status, 200);
  });

  t.test('the add event reaches another user', async (t) => {
    const { hamlet, othello } = await world(t);
    const queue = await register(othello, { event_types: ['user_group'] });
    const inner = await createGroup(hamlet, 'inner', []);
    const id = await createGroup(hamlet, 'frontend', [OTHELLO], { subgroups: [inner] });
    const events = (await take(queue)).filter((e) => e.type === 'user_group');
    t.equal(events.length, 2);
    t.match(events[1], { type: 'user_group', op: 'add', group: { id, name: 'frontend', description: 'frontend people', members: [OTHELLO], direct_subgroup_ids: [inner], creator_id: HAMLET, is_system_group: false, deactivated: false } });
    t.same(events[1].group, await groupById(othello, id), 'the same object GET /user_groups gives');
  });
});

test('reading user groups', async (t) => {
  t.test('system groups are listed, with their members and subgroups', async (t) => {
    const { hamlet, server } = await world(t);
    await deactivateUser(server, CORDELIA);
    const groups = await groupsByName(hamlet);
    for (const name of SYSTEM_NAMES) t.ok(groups[name]?.is_system_group, `${name} is there`);
    t.same(groups['role:owners'].members, [DESDEMONA]);
    t.same(groups['role:administrators'].direct_subgroup_ids, [groups['role:owners'].id]);
    t.same(groups['role:everyone'].members, [POLONIUS]);
    t.equal(groups['role:owners'].date_created, null);
    t.equal(groups['role:owners'].creator_id, null);
    t.equal(groups['role:owners'].can_manage_group, groups['role:nobody'].id, 'system groups hold role:nobody');
    t.notOk(groups['role:members'].members.includes(CORDELIA), 'deactivated users are not listed');
    const everyone = (await hamlet.get(`/user_groups/${groups['role:everyone'].id}/members`)).body.members;
    const active = [...server.services.org.users.all()].filter((u) => u.isActive && !u.isSystemBot).map((u) => u.id).sort((a, b) => a - b);
    t.same(everyone, active, 'every active user, through subgroups');
    t.notOk(everyone.includes(CORDELIA));
  });

  t.test('system groups are never editable', async (t) => {
    const { desdemona } = await world(t);
    const members = await systemGroupId(desdemona, 'role:members');
    t.same(error(await desdemona.patch(`/user_groups/${members}`, { name: 'people' })), refused('Insufficient permission'));
    t.same(error(await desdemona.post(`/user_groups/${members}/members`, { add: [POLONIUS] })), refused('Insufficient permission'));
    t.same(error(await desdemona.post(`/user_groups/${members}/subgroups`, { delete: [await systemGroupId(desdemona, 'role:fullmembers')] })), refused('Insufficient permission'));
    t.same(error(await desdemona.post(`/user_groups/${members}/deactivate`)), refused('Insufficient permission'));
  });

  t.test('include_deactivated_groups', async (t) => {
    const { hamlet } = await world(t);
    const id = await createGroup(hamlet, 'retired', []);
    await hamlet.post(`/user_groups/${id}/deactivate`);
    const names = async (params: Record<string, unknown>) => (await hamlet.get('/user_groups', params)).body.user_groups.map((g: any) => g.name);
    t.notOk((await names({})).includes('retired'), 'left out by default');
    t.ok((await names({ include_deactivated_groups: true })).includes('retired'));
    t.equal((await groupById(hamlet, id)).deactivated, true);
  });

  t.test('members, direct_member_only, one member, subgroups', async (t) => {
    const { hamlet, server } = await world(t);
    await deactivateUser(server, CORDELIA);
    const a = await createGroup(hamlet, 'a', [OTHELLO]);
    const b = await createGroup(hamlet, 'b', [PROSPERO], { subgroups: [a] });
    const c = await createGroup(hamlet, 'c', [HAMLET], { subgroups: [b] });
    t.same((await hamlet.get(`/user_groups/${c}/members`)).body.members, [HAMLET, OTHELLO, PROSPERO]);
    t.same((await hamlet.get(`/user_groups/${c}/members`, { direct_member_only: true })).body.members, [HAMLET]);
    t.equal((await hamlet.get(`/user_groups/${c}/members/${OTHELLO}`)).body.is_user_group_member, true);
    t.equal((await hamlet.get(`/user_groups/${c}/members/${OTHELLO}`, { direct_member_only: true })).body.is_user_group_member, false);
    t.equal((await hamlet.get(`/user_groups/${a}/members/${HAMLET}`)).body.is_user_group_member, false);
    t.same(error(await hamlet.get(`/user_groups/${a}/members/500`)), refused('No such user'));
    t.same(error(await hamlet.get(`/user_groups/${a}/members/${CORDELIA}`)), refused('User is deactivated'));
    t.same((await hamlet.get(`/user_groups/${c}/subgroups`)).body.subgroups, [a, b]);
    t.same((await hamlet.get(`/user_groups/${c}/subgroups`, { direct_subgroup_only: true })).body.subgroups, [b]);
    t.same(error(await hamlet.get('/user_groups/999/members')), refused('Invalid user group'));
    t.same(error(await hamlet.get('/user_groups/999/subgroups')), refused('Invalid user group'));
    await hamlet.post(`/user_groups/${a}/deactivate`).then(async (r) => t.same(error(r), refused('Cannot deactivate user group in use.', 'CANNOT_DEACTIVATE_GROUP_IN_USE'), 'a subgroup in use'));
  });

  t.test('guests and bots may not read groups (require_member_or_admin)', async (t) => {
    const { polonius, hamlet, server } = await world(t);
    const id = await createGroup(hamlet, 'team', []);
    for (const path of ['/user_groups', `/user_groups/${id}/members`, `/user_groups/${id}/members/${HAMLET}`, `/user_groups/${id}/subgroups`]) {
      t.same(error(await polonius.get(path)), refused('Not allowed for guest users'), path);
    }
    const bot = server.services.org.users.get(9);
    if (bot?.isBot && !bot.isSystemBot) {
      t.same(error(await clientFor(server, bot.deliveryEmail).get('/user_groups')), refused('This endpoint does not accept bot requests.'));
    }
  });

  t.test('register: realm_user_groups, with deactivated groups only for clients that know them', async (t) => {
    const { hamlet } = await world(t);
    const kept = await createGroup(hamlet, 'kept', [HAMLET]);
    const gone = await createGroup(hamlet, 'gone', []);
    await hamlet.post(`/user_groups/${gone}/deactivate`);
    const plain = (await hamlet.post('/register', { fetch_event_types: ['realm_user_groups'] })).body.realm_user_groups;
    const capable = (await hamlet.post('/register', { fetch_event_types: ['realm_user_groups'], client_capabilities: { include_deactivated_groups: true } })).body.realm_user_groups;
    t.ok(plain.some((g: any) => g.id === kept));
    t.notOk(plain.some((g: any) => g.id === gone));
    t.ok(capable.some((g: any) => g.id === gone && g.deactivated === true));
    t.same(plain.find((g: any) => g.id === kept), await groupById(hamlet, kept), 'the same objects as GET /user_groups');
  });

  t.test('groups, their settings and their state after a restart', async (t) => {
    const { server, hamlet } = await world(t);
    const moderators = await systemGroupId(hamlet, 'role:moderators');
    const a = await createGroup(hamlet, 'a', [OTHELLO], { can_join_group: { direct_members: [PROSPERO], direct_subgroups: [moderators] } });
    const b = await createGroup(hamlet, 'b', [HAMLET], { subgroups: [a] });
    const c = await createGroup(hamlet, 'c', []);
    await hamlet.post(`/user_groups/${c}/deactivate`);
    const before = await groupsByName(hamlet);
    const restarted = await server.restart();
    t.teardown(() => restarted.destroy());
    const again = clientFor(restarted, 'hamlet@example.com');
    t.same(await groupsByName(again), before, 'every group as it was');
    t.equal((await groupById(again, c)).deactivated, true, 'still deactivated');
    t.equal(restarted.services.actors.peek((await import('../../src/actors/user-group.js')).userGroupKind, String(c))?.value, 'deactivated', "the actor's state too");
    t.same((await again.get(`/user_groups/${b}/members`)).body.members, [HAMLET, OTHELLO]);
    const d = await createGroup(again, 'd', []);
    t.ok(d > c, 'ids are not reused');
  });
});
