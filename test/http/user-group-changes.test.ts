/**
 * Black-box tests of changing user groups: PATCH (name, description, settings as `{new, old}`,
 * reactivation), membership of users and subgroups with cycle detection, deactivation with
 * Zulip's objections, who may do each, and every change's event on another user's queue.
 */
import { test } from 'tap';
import { register, take, type Queue } from '../helpers/events.js';
import { setRealm, world } from '../helpers/world.js';
import { CORDELIA, HAMLET, IAGO, OTHELLO, PROSPERO, VERONA } from '../helpers/demo-ids.js';
import { createGroup, deactivateUser, groupById, refused, systemGroupId } from '../helpers/user-groups.js';
import { error } from '../helpers/messages.js';
import { Transaction } from '../../src/store/transaction.js';

const groupEvents = async (queue: Queue) => (await take(queue)).filter((e) => e.type === 'user_group').map(({ id: _id, ...event }) => event);

test('PATCH /user_groups/{id}', async (t) => {
  t.test('name and description, each with its update event', async (t) => {
    const { hamlet, othello } = await world(t);
    const id = await createGroup(hamlet, 'team', []);
    const queue = await register(othello, { event_types: ['user_group'] });
    t.equal((await hamlet.patch(`/user_groups/${id}`, { name: 'squad', description: 'The squad' })).status, 200);
    t.same(await groupEvents(queue), [
      { type: 'user_group', op: 'update', group_id: id, data: { name: 'squad' } },
      { type: 'user_group', op: 'update', group_id: id, data: { description: 'The squad' } },
    ]);
    t.match(await groupById(hamlet, id), { name: 'squad', description: 'The squad' });
    t.equal((await hamlet.patch(`/user_groups/${id}`, { name: 'squad' })).status, 200, 'the same name again');
    t.same(await groupEvents(queue), [], 'changes nothing and says nothing');
    await createGroup(hamlet, 'other', []);
    t.same(error(await hamlet.patch(`/user_groups/${id}`, { name: 'other' })), refused("User group 'other' already exists."));
    t.same(error(await hamlet.patch(`/user_groups/${id}`, { name: 'role:x' })), refused("User group name cannot start with 'role:'."));
    t.same(error(await hamlet.patch(`/user_groups/${id}`, {})), refused('No new data supplied'));
    t.same(error(await hamlet.patch('/user_groups/999', { name: 'x' })), refused('Invalid user group'));
  });

  t.test('settings as {new, old}; a wrong old changes nothing', async (t) => {
    const { hamlet, othello } = await world(t);
    const id = await createGroup(hamlet, 'team', []);
    const moderators = await systemGroupId(hamlet, 'role:moderators');
    const members = await systemGroupId(hamlet, 'role:members');
    const queue = await register(othello, { event_types: ['user_group'] });
    const creatorOnly = { direct_members: [HAMLET], direct_subgroups: [] };
    t.equal((await hamlet.patch(`/user_groups/${id}`, { can_join_group: { new: members } })).status, 200, 'old is optional');
    t.equal((await hamlet.patch(`/user_groups/${id}`, {
      can_add_members_group: { new: { direct_members: [OTHELLO], direct_subgroups: [moderators] }, old: creatorOnly },
    })).status, 200);
    t.same(await groupEvents(queue), [
      { type: 'user_group', op: 'update', group_id: id, data: { can_join_group: members } },
      { type: 'user_group', op: 'update', group_id: id, data: { can_add_members_group: { direct_members: [OTHELLO], direct_subgroups: [moderators] } } },
    ]);
    const mismatch = await hamlet.patch(`/user_groups/${id}`, {
      description: 'changed?',
      can_leave_group: { new: members },
      can_join_group: { new: moderators, old: moderators },
    });
    t.same(error(mismatch), refused("'old' value does not match the expected value.", 'EXPECTATION_MISMATCH'));
    t.match(await groupById(hamlet, id), { description: 'team people', can_join_group: members }, 'nothing changed');
    t.same(await groupEvents(queue), [], 'no event');
    t.equal((await hamlet.patch(`/user_groups/${id}`, {
      can_add_members_group: { new: { direct_members: [], direct_subgroups: [moderators] }, old: { direct_members: [OTHELLO], direct_subgroups: [moderators] } },
    })).status, 200, 'old compared in normal form');
    t.equal((await groupById(hamlet, id)).can_add_members_group, moderators);
    t.equal((await hamlet.patch(`/user_groups/${id}`, { can_join_group: { new: members, old: members } })).status, 200);
    t.same((await groupEvents(queue)).length, 1, 'an unchanged value sends nothing');
  });

  t.test('setting rules: forbidden system groups, deactivated groups, the {new, old} form only', async (t) => {
    const { hamlet } = await world(t);
    const id = await createGroup(hamlet, 'team', []);
    const gone = await createGroup(hamlet, 'gone', []);
    await hamlet.post(`/user_groups/${gone}/deactivate`);
    const sys = (name: string) => systemGroupId(hamlet, name);
    t.same(error(await hamlet.patch(`/user_groups/${id}`, { can_manage_group: { new: await sys('role:everyone') } })), refused("'can_manage_group' setting cannot be set to 'role:everyone' group."));
    t.same(error(await hamlet.patch(`/user_groups/${id}`, { can_manage_group: { new: await sys('role:internet') } })), refused("'can_manage_group' setting cannot be set to 'role:internet' group."));
    t.same(error(await hamlet.patch(`/user_groups/${id}`, { can_mention_group: { new: await sys('role:owners') } })), refused("'can_mention_group' setting cannot be set to 'role:owners' group."));
    t.same(error(await hamlet.patch(`/user_groups/${id}`, { can_mention_group: { new: await sys('role:internet') } })), refused("'can_mention_group' setting cannot be set to 'role:internet' group."));
    t.same(error(await hamlet.patch(`/user_groups/${id}`, { can_mention_group: { new: gone } })), refused('User group is deactivated.'));
    t.same(error(await hamlet.patch(`/user_groups/${id}`, { can_mention_group: { new: { direct_members: [HAMLET], direct_subgroups: [gone] } } })), refused('User group is deactivated.'));
    const plain = await hamlet.patch(`/user_groups/${id}`, { can_mention_group: await sys('role:members') });
    t.equal(plain.status, 400, 'can_mention_group only as {new, old}');
    t.equal((await hamlet.patch(`/user_groups/${id}`, { can_mention_group: { new: await sys('role:members') } })).status, 200);
  });

  t.test('who may edit: the group managers, those who manage all groups; never guests', async (t) => {
    const { hamlet, othello, desdemona, iago, polonius, server } = await world(t);
    const id = await createGroup(hamlet, 'team', []);
    t.same(error(await othello.patch(`/user_groups/${id}`, { name: 'mine' })), refused('Insufficient permission'));
    t.same(error(await iago.patch(`/user_groups/${id}`, { name: 'mine' })), refused('Insufficient permission'), 'can_manage_all_groups is the owners by default');
    t.equal((await desdemona.patch(`/user_groups/${id}`, { name: 'owned' })).status, 200, 'an owner manages all groups');
    t.same(error(await polonius.patch(`/user_groups/${id}`, { name: 'guest' })), refused('Not allowed for guest users'));
    await setRealm(server, { can_manage_all_groups: await systemGroupId(hamlet, 'role:administrators') });
    t.equal((await iago.patch(`/user_groups/${id}`, { name: 'admin' })).status, 200, 'administrators once the setting says so');
    t.equal((await hamlet.patch(`/user_groups/${id}`, { can_manage_group: { new: { direct_members: [OTHELLO], direct_subgroups: [] } } })).status, 200);
    t.equal((await othello.patch(`/user_groups/${id}`, { name: 'othello' })).status, 200, 'the new manager');
    t.same(error(await hamlet.patch(`/user_groups/${id}`, { name: 'hamlet' })), refused('Insufficient permission'), 'the creator no longer');
  });
});

test('deactivating and reactivating', async (t) => {
  t.test('events by capability: update for queues that know deactivated groups, remove/add for the others', async (t) => {
    const { hamlet, othello } = await world(t);
    const id = await createGroup(hamlet, 'team', [OTHELLO]);
    const plain = await register(othello, { event_types: ['user_group'] });
    const capable = await register(othello, { event_types: ['user_group'], client_capabilities: { include_deactivated_groups: true } });
    t.equal((await hamlet.post(`/user_groups/${id}/deactivate`)).status, 200);
    t.same(await groupEvents(plain), [{ type: 'user_group', op: 'remove', group_id: id }]);
    t.same(await groupEvents(capable), [{ type: 'user_group', op: 'update', group_id: id, data: { deactivated: true } }]);
    t.same(error(await hamlet.post(`/user_groups/${id}/deactivate`)), refused('User group is deactivated.'));
    t.equal((await hamlet.patch(`/user_groups/${id}`, { deactivated: true })).status, 200, 'deactivated=true has no effect');
    t.same(await groupEvents(capable), []);
    t.equal((await hamlet.patch(`/user_groups/${id}`, { deactivated: false })).status, 200);
    t.same(await groupEvents(capable), [{ type: 'user_group', op: 'update', group_id: id, data: { deactivated: false } }]);
    const added = await groupEvents(plain);
    t.equal(added.length, 1);
    t.match(added[0], { type: 'user_group', op: 'add', group: { id, name: 'team', members: [OTHELLO], deactivated: false } });
    t.notOk('for_reactivation' in added[0], 'no internal field reaches clients');
    t.equal((await groupById(hamlet, id)).deactivated, false);
    t.equal((await hamlet.patch(`/user_groups/${id}`, { deactivated: false })).status, 200, 'reactivating an active group does nothing');
    t.same(await groupEvents(capable), []);
  });

  t.test('a deactivated group stays editable: name, settings, members, subgroups', async (t) => {
    const { hamlet } = await world(t);
    const id = await createGroup(hamlet, 'team', []);
    const sub = await createGroup(hamlet, 'sub', []);
    await hamlet.post(`/user_groups/${id}/deactivate`);
    t.equal((await hamlet.patch(`/user_groups/${id}`, { name: 'renamed', can_join_group: { new: await systemGroupId(hamlet, 'role:members') } })).status, 200);
    t.equal((await hamlet.post(`/user_groups/${id}/members`, { add: [OTHELLO], add_subgroups: [sub] })).status, 200);
    t.match(await groupById(hamlet, id), { name: 'renamed', members: [OTHELLO], direct_subgroup_ids: [sub], deactivated: true });
    t.same(error(await hamlet.get(`/user_groups/${id}/members`)), refused('User group is deactivated.'), "Zulip's membership reads refuse it");
  });

  t.test('only who manages the group may deactivate it', async (t) => {
    const { hamlet, othello, polonius } = await world(t);
    const id = await createGroup(hamlet, 'team', []);
    t.same(error(await othello.post(`/user_groups/${id}/deactivate`)), refused('Insufficient permission'));
    t.same(error(await polonius.post(`/user_groups/${id}/deactivate`)), refused('Insufficient permission'));
    t.same(error(await hamlet.post('/user_groups/999/deactivate')), refused('Invalid user group'));
  });

  t.test('refused while in use, with the objections', async (t) => {
    const { hamlet, server } = await world(t);
    const used = await createGroup(hamlet, 'used', []);
    const parent = await createGroup(hamlet, 'parent', [], { subgroups: [used] });
    const user = await createGroup(hamlet, 'user', [], { can_join_group: used, can_mention_group: { direct_members: [HAMLET], direct_subgroups: [used] } });
    await setRealm(server, { can_create_groups: used });
    const { org } = server.services;
    const tx = new Transaction();
    const verona = org.channels.get(VERONA)!;
    org.channels.save({ ...verona, settings: { ...verona.settings, can_send_message_group: used } }, tx);
    await server.services.commit(tx);
    const response = await hamlet.post(`/user_groups/${used}/deactivate`);
    t.same(error(response), refused('Cannot deactivate user group in use.', 'CANNOT_DEACTIVATE_GROUP_IN_USE'));
    t.same(response.body.objections, [
      { type: 'subgroup', supergroup_ids: [parent] },
      { type: 'channel', channel_id: VERONA, settings: ['can_send_message_group'] },
      { type: 'user_group', group_id: user, settings: ['can_join_group', 'can_mention_group'] },
      { type: 'realm', settings: ['can_create_groups'] },
    ]);
    t.equal((await groupById(hamlet, used)).deactivated, false, 'still active');
    // A deactivated supergroup does not object.
    t.equal((await hamlet.post(`/user_groups/${user}/deactivate`)).status, 200);
    t.equal((await hamlet.post(`/user_groups/${parent}/deactivate`)).status, 200);
    const again = await hamlet.post(`/user_groups/${used}/deactivate`);
    t.same(again.body.objections, [
      { type: 'channel', channel_id: VERONA, settings: ['can_send_message_group'] },
      { type: 'realm', settings: ['can_create_groups'] },
    ], 'deactivated groups no longer object');
  });
});

test('POST /user_groups/{id}/members and /subgroups', async (t) => {
  t.test('adding and removing members, with their events', async (t) => {
    const { hamlet, othello } = await world(t);
    const id = await createGroup(hamlet, 'team', [HAMLET]);
    const queue = await register(othello, { event_types: ['user_group'] });
    t.equal((await hamlet.post(`/user_groups/${id}/members`, { add: [OTHELLO, PROSPERO] })).status, 200);
    t.same(error(await othello.post(`/user_groups/${id}/members`, { delete: [PROSPERO] })), refused('Insufficient permission'), 'others are removed by can_remove_members_group (nobody by default)');
    t.equal((await hamlet.post(`/user_groups/${id}/members`, { delete: [PROSPERO] })).status, 200, 'the manager may do everything');
    t.same((await groupEvents(queue)).filter((e) => e.op !== 'update'), [
      { type: 'user_group', op: 'add_members', group_id: id, user_ids: [OTHELLO, PROSPERO] },
      { type: 'user_group', op: 'remove_members', group_id: id, user_ids: [PROSPERO] },
    ]);
    t.same((await groupById(hamlet, id)).members, [HAMLET, OTHELLO]);
    const told = (await othello.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'is', operand: 'dm' }], apply_markdown: false })).body.messages[0];
    t.match(told, { sender_email: /notification-bot/, content: `@_**King Hamlet|${HAMLET}** added you to the group @_*team*.` }, 'the notification bot tells whom someone else added');
    await hamlet.patch(`/user_groups/${id}`, { can_remove_members_group: { new: { direct_members: [OTHELLO], direct_subgroups: [] } } });
    t.equal((await othello.post(`/user_groups/${id}/members`, { delete: [HAMLET] })).status, 200, 'once can_remove_members_group says so');
  });

  t.test('membership errors change nothing', async (t) => {
    const { hamlet, server } = await world(t);
    await deactivateUser(server, CORDELIA);
    const id = await createGroup(hamlet, 'team', [HAMLET], { can_remove_members_group: { direct_members: [HAMLET], direct_subgroups: [] } });
    const members = (params: Record<string, unknown>) => hamlet.post(`/user_groups/${id}/members`, params);
    t.same(error(await members({})), refused('Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".'));
    t.same(error(await members({ add: [] })), refused('Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".'));
    t.same(error(await members({ add: [HAMLET] })), refused(`User ${HAMLET} is already a member of this group`));
    t.same(error(await members({ add: [500] })), refused('Invalid user ID: 500'));
    t.same(error(await members({ add: [CORDELIA] })), refused(`Invalid user ID: ${CORDELIA}`), 'only active users');
    t.same(error(await members({ delete: [OTHELLO] })), refused(`There is no member '${OTHELLO}' in this user group`));
    t.same(error(await members({ add: [OTHELLO], delete: [PROSPERO] })), refused(`There is no member '${PROSPERO}' in this user group`));
    t.same((await groupById(hamlet, id)).members, [HAMLET], 'the add of the refused request did not happen');
    t.same(error(await hamlet.post('/user_groups/999/members', { add: [OTHELLO] })), refused('Invalid user group'));
  });

  t.test('joining and leaving oneself: can_join_group, can_leave_group', async (t) => {
    const { hamlet, othello, polonius } = await world(t);
    const id = await createGroup(hamlet, 'team', []);
    t.same(error(await othello.post(`/user_groups/${id}/members`, { add: [OTHELLO] })), refused('Insufficient permission'), 'can_join_group is nobody by default');
    await hamlet.patch(`/user_groups/${id}`, { can_join_group: { new: await systemGroupId(hamlet, 'role:members') } });
    t.equal((await othello.post(`/user_groups/${id}/members`, { add: [OTHELLO] })).status, 200);
    t.same(error(await othello.post(`/user_groups/${id}/members`, { add: [PROSPERO] })), refused('Insufficient permission'), 'joining is for oneself');
    t.equal((await othello.post(`/user_groups/${id}/members`, { delete: [OTHELLO] })).status, 200, 'can_leave_group is everyone by default');
    await hamlet.patch(`/user_groups/${id}`, { can_leave_group: { new: await systemGroupId(hamlet, 'role:nobody') } });
    await othello.post(`/user_groups/${id}/members`, { add: [OTHELLO] });
    t.same(error(await othello.post(`/user_groups/${id}/members`, { delete: [OTHELLO] })), refused('Insufficient permission'));
    t.same(error(await polonius.post(`/user_groups/${id}/members`, { add: [8] })), refused('Not allowed for guest users'));
  });

  t.test('subgroups: add and delete, events, and no cycles', async (t) => {
    const { hamlet, othello } = await world(t);
    const a = await createGroup(hamlet, 'a', [OTHELLO]);
    const b = await createGroup(hamlet, 'b', [], { subgroups: [a] });
    const c = await createGroup(hamlet, 'c', []);
    const queue = await register(othello, { event_types: ['user_group'] });
    t.equal((await hamlet.post(`/user_groups/${c}/subgroups`, { add: [b] })).status, 200);
    t.same(error(await hamlet.post(`/user_groups/${a}/subgroups`, { add: [c] })), refused(`User group ${a} is already a subgroup of one of the passed subgroups.`), 'a → c → b → a');
    t.same(error(await hamlet.post(`/user_groups/${a}/members`, { add_subgroups: [b] })), refused(`User group ${a} is already a subgroup of one of the passed subgroups.`));
    t.same(error(await hamlet.post(`/user_groups/${a}/subgroups`, { add: [a] })), refused(`User group ${a} is already a subgroup of one of the passed subgroups.`), 'itself');
    t.same(error(await hamlet.post(`/user_groups/${c}/subgroups`, { add: [b] })), refused(`User group ${b} is already a subgroup of this group.`));
    t.same(error(await hamlet.post(`/user_groups/${c}/subgroups`, { add: [999] })), refused('Invalid user group ID: 999'));
    t.same(error(await hamlet.post(`/user_groups/${c}/subgroups`, { delete: [a] })), refused(`User group ${a} is not a subgroup of this group.`));
    t.same(error(await hamlet.post(`/user_groups/${c}/subgroups`, {})), refused('Nothing to do. Specify at least one of "add" or "delete".'));
    t.same((await hamlet.get(`/user_groups/${c}/members`)).body.members, [OTHELLO], 'members through subgroups');
    t.equal((await hamlet.post(`/user_groups/${c}/members`, { delete_subgroups: [b] })).status, 200);
    t.same(await groupEvents(queue), [
      { type: 'user_group', op: 'add_subgroups', group_id: c, direct_subgroup_ids: [b] },
      { type: 'user_group', op: 'remove_subgroups', group_id: c, direct_subgroup_ids: [b] },
    ]);
    t.equal((await hamlet.post(`/user_groups/${a}/subgroups`, { add: [c] })).status, 200, 'no cycle once b is gone from c');
  });

  t.test('who may change subgroups: can_add_members_group adds, can_manage_group removes', async (t) => {
    const { hamlet, othello } = await world(t);
    const sub = await createGroup(hamlet, 'sub', []);
    const id = await createGroup(hamlet, 'team', [], { can_add_members_group: { direct_members: [OTHELLO], direct_subgroups: [] } });
    t.equal((await othello.post(`/user_groups/${id}/subgroups`, { add: [sub] })).status, 200);
    t.same(error(await othello.post(`/user_groups/${id}/subgroups`, { delete: [sub] })), refused('Insufficient permission'));
    t.equal((await hamlet.post(`/user_groups/${id}/subgroups`, { delete: [sub] })).status, 200);
  });
});

test('group mentions', async (t) => {
  t.test('@*group* flags its members, through subgroups, and respects can_mention_group', async (t) => {
    const { hamlet, othello, iago } = await world(t);
    const inner = await createGroup(hamlet, 'inner', [IAGO]);
    const id = await createGroup(hamlet, 'crew', [OTHELLO], { subgroups: [inner] });
    const sent = await hamlet.post('/messages', { type: 'stream', to: VERONA, topic: 'mentions', content: 'hello @*crew*' });
    t.equal(sent.status, 200);
    const flags = async (api: typeof hamlet) => (await api.get(`/messages/${sent.body.id}`)).body.message.flags;
    t.ok((await flags(othello)).includes('mentioned'), 'a direct member');
    t.ok((await flags(iago)).includes('mentioned'), 'a member through a subgroup');
    t.notOk((await flags(hamlet)).includes('mentioned'), 'the sender is no member');
    await hamlet.patch(`/user_groups/${id}`, { can_mention_group: { new: { direct_members: [IAGO], direct_subgroups: [] } } });
    t.same(error(await hamlet.post('/messages', { type: 'stream', to: VERONA, topic: 'mentions', content: 'again @*crew*' })), refused("You are not allowed to mention user group 'crew'."));
    t.equal((await hamlet.post('/messages', { type: 'stream', to: VERONA, topic: 'mentions', content: 'quietly @_*crew*' })).status, 200, 'a silent mention needs no permission');
    t.equal((await iago.post('/messages', { type: 'stream', to: VERONA, topic: 'mentions', content: 'I may @*crew*' })).status, 200);
    const plain = await hamlet.post('/messages', { type: 'stream', to: VERONA, topic: 'mentions', content: 'no mention yet' });
    t.same(error(await hamlet.patch(`/messages/${plain.body.id}`, { content: 'now @*crew*' })), refused("You are not allowed to mention user group 'crew'."), 'an edit that adds the mention');
    t.equal((await hamlet.patch(`/messages/${sent.body.id}`, { content: 'hello again @*crew*' })).status, 200, 'an edit keeping a mention made when it was allowed');
  });

  t.test('a deactivated group cannot be mentioned', async (t) => {
    const { hamlet, othello } = await world(t);
    const id = await createGroup(hamlet, 'crew', [OTHELLO]);
    await hamlet.post(`/user_groups/${id}/deactivate`);
    const sent = await hamlet.post('/messages', { type: 'stream', to: VERONA, topic: 'mentions', content: 'hello @*crew*' });
    t.equal(sent.status, 200);
    const message = (await othello.get(`/messages/${sent.body.id}`)).body.message;
    t.notOk(message.flags.includes('mentioned'));
    t.notMatch(message.content, /user-group-mention/, 'plain text');
    await hamlet.patch(`/user_groups/${id}`, { deactivated: false });
    const again = await hamlet.post('/messages', { type: 'stream', to: VERONA, topic: 'mentions', content: 'hello @*crew*' });
    t.ok((await othello.get(`/messages/${again.body.id}`)).body.message.flags.includes('mentioned'), 'mentioned again once reactivated');
  });
});
