/**
 * Black-box tests of administering users: POST /users and PATCH /users/{id}, seen through their realm_user events.
 */
import { test } from 'tap';
import { world } from '../helpers/world.js';
import { HAMLET, IAGO, OTHELLO, register, take } from '../helpers/events.js';
import { error } from '../helpers/messages.js';
import { clientFor } from '../helpers/server.js';
import { EmailVisibility } from '../../src/domain/users.js';
import { Transaction } from '../../src/store/transaction.js';
import type { TestServer } from '../helpers/server.js';

const bad = (msg: string) => [400, 'BAD_REQUEST', msg];

/** Changes a user's record directly, as a settings page (not built here) would. */
async function setUser(server: TestServer, userId: number, fields: Record<string, unknown>): Promise<void> {
  const { org } = server.services;
  const tx = new Transaction();
  org.users.save({ ...org.users.get(userId)!, ...fields }, tx);
  await server.services.commit(tx);
}

test('user administration', async (t) => {
  t.test('realm_user add (POST /users) and update (PATCH /users/{id})', async (t) => {
    const { org, iago, othello } = await world(t);
    const queue = await register(othello, { event_types: ['realm_user'] });
    const created = await iago.post('/users', { email: 'ophelia@example.com', password: 'nunnery-123', full_name: 'Ophelia' });
    t.equal(created.status, 200);
    const userId = created.body.user_id;
    const [add] = await take(queue);
    t.equal(add.type, 'realm_user');
    t.equal(add.op, 'add');
    for (const key of ['email', 'delivery_email', 'user_id', 'avatar_version', 'is_admin', 'is_owner', 'is_guest', 'role', 'is_bot', 'full_name', 'timezone', 'is_active', 'date_joined', 'avatar_url', 'profile_data']) {
      t.ok(key in add.person, `person has ${key}`);
    }
    t.match(add.person, { user_id: userId, full_name: 'Ophelia', role: 400, is_active: true, is_bot: false });
    t.equal((await iago.patch(`/users/${HAMLET}`, { full_name: 'Prince Hamlet' })).status, 200);
    t.equal((await iago.patch(`/users/${HAMLET}`, { role: 300 })).status, 200);
    t.equal((await iago.patch(`/users/${HAMLET}`, { role: 300 })).status, 200);
    t.same((await take(queue)).map(({ id: _, ...rest }) => rest), [
      { type: 'realm_user', op: 'update', person: { user_id: HAMLET, full_name: 'Prince Hamlet' } },
      { type: 'realm_user', op: 'update', person: { user_id: HAMLET, role: 300 } },
    ], 'one event per change, none when nothing changes');
    await iago.patch(`/users/${HAMLET}`, { full_name: 'King Hamlet', role: 400 });
    t.equal(org.users.get(HAMLET)!.fullName, 'King Hamlet');
  });

  t.test('full_name: a plain string, with Zulip\'s name rules', async (t) => {
    const { desdemona, iago, othello } = await world(t);
    const patch = async (full_name: string) => error(await iago.patch(`/users/${HAMLET}`, { full_name }));
    t.same(await patch('x'.repeat(101)), bad('Name too long!'));
    t.same(await patch('H'), bad('Name too short!'));
    for (const name of ['Ham*let', 'Ham`let', 'Ham\\let', 'Ham>let', 'Ham"let', 'Ham@let']) t.same(await patch(name), bad('Invalid characters in name!'), name);
    t.same(await patch('Hamlet|15'), bad('Invalid format!'));
    const queue = await register(desdemona, { event_types: ['realm_user'] });
    t.equal((await iago.patch(`/users/${HAMLET}`, { full_name: '   ' })).status, 200, 'a blank name is ignored, as Zulip does');
    t.equal((await iago.patch(`/users/${HAMLET}`, { full_name: '  [1, 2]  ' })).status, 200, 'not JSON-decoded; trimmed');
    t.same((await take(queue)).map((e) => e.person), [{ user_id: HAMLET, full_name: '[1, 2]' }]);
  });

  t.test('roles: owners alone grant or remove ownership; the only owner keeps it; guests are not made administrators', async (t) => {
    const { server, desdemona, iago, shiva, othello } = await world(t);
    const polonius = server.services.org.users.byEmail('polonius@example.com')!.id;
    const desdemonaId = server.services.org.users.byEmail('desdemona@example.com')!.id;
    t.same(error(await shiva.patch(`/users/${HAMLET}`, { role: 300 })), bad('Insufficient permission'), 'moderators may not');
    t.same(error(await iago.patch(`/users/${HAMLET}`, { role: 100 })), bad('Must be an organization owner'), 'only owners add the owner role');
    t.same(error(await iago.patch(`/users/${desdemonaId}`, { role: 200 })), bad('Must be an organization owner'), 'only owners remove it');
    t.same(error(await desdemona.patch(`/users/${desdemonaId}`, { role: 200 })), bad('The owner permission cannot be removed from the only organization owner.'));
    t.same(error(await iago.patch(`/users/${polonius}`, { role: 200 })), bad('Guests cannot be organization administrators'));
    t.same(error(await desdemona.patch(`/users/${polonius}`, { role: 100 })), bad('Guests cannot be organization administrators'));
    t.same(error(await iago.patch(`/users/${HAMLET}`, { role: 250 })), bad('Invalid role'));
    t.same(error(await iago.patch(`/users/${HAMLET}`, { role: '"x"' })), bad('role is not an integer'));
    const queue = await register(desdemona, { event_types: ['realm_user'] });
    const groupsQueue = await register(desdemona, { event_types: ['user_group'] });
    const poloniusQueue = await register(clientFor(server, 'polonius@example.com'), { event_types: ['stream'] });
    const publicChannels = [...server.services.org.channels.all()].filter((c) => !c.inviteOnly).map((c) => c.id);
    const guestSees = publicChannels.filter((id) => server.services.subscriptions.isSubscribed(polonius, id));
    t.equal((await iago.patch(`/users/${polonius}`, { role: 400 })).status, 200, 'a guest becomes a member first');
    const { systemGroups } = server.services.org.realm;
    t.same((await take(groupsQueue)).map(({ id: _, ...e }) => e), [
      { type: 'user_group', op: 'remove_members', group_id: systemGroups['role:everyone'], user_ids: [polonius] },
      { type: 'user_group', op: 'add_members', group_id: systemGroups['role:fullmembers'], user_ids: [polonius] },
      { type: 'user_group', op: 'add_members', group_id: systemGroups['role:members'], user_ids: [polonius] },
    ], 'the system groups left and joined');
    const [created] = await take(poloniusQueue);
    t.same(created.streams.map((c: { stream_id: number }) => c.stream_id).sort(), publicChannels.filter((id) => !guestSees.includes(id)).sort(), 'the public channels a member sees');
    t.equal((await desdemona.patch(`/users/${HAMLET}`, { role: 100 })).status, 200, 'an owner makes another owner');
    t.equal((await desdemona.patch(`/users/${desdemonaId}`, { role: 200 })).status, 200, 'who may then step down');
    t.same((await take(queue)).map((e) => e.person), [{ user_id: polonius, role: 400 }, { user_id: HAMLET, role: 100 }, { user_id: desdemonaId, role: 200 }]);
    t.same(error(await clientFor(server, 'hamlet@example.com').patch(`/users/${HAMLET}`, { role: 400 })), bad('The owner permission cannot be removed from the only organization owner.'));
  });

  t.test('new_email: an owner holding can_change_user_emails', async (t) => {
    const { server, desdemona, iago, othello } = await world(t);
    const desdemonaId = server.services.org.users.byEmail('desdemona@example.com')!.id;
    t.same(error(await iago.patch(`/users/${HAMLET}`, { new_email: 'prince@example.com' })), bad('Must be an organization owner'));
    t.same(error(await desdemona.patch(`/users/${HAMLET}`, { new_email: 'prince@example.com' })), bad('User not authorized to change user emails'));
    await setUser(server, desdemonaId, { canChangeUserEmails: true });
    t.same(error(await desdemona.patch(`/users/${HAMLET}`, { new_email: 'not an address' })), bad('Invalid address.'));
    t.same(error(await desdemona.patch(`/users/${HAMLET}`, { new_email: 'othello@example.com' })), bad("Email 'othello@example.com' already in use"));
    t.same(error(await desdemona.patch(`/users/${HAMLET}`, { full_name: 'Prince Hamlet', new_email: 'othello@example.com' })), bad("Email 'othello@example.com' already in use"));
    t.equal(server.services.org.users.get(HAMLET)!.fullName, 'King Hamlet', 'a refused request changes nothing');
    const queue = await register(iago, { event_types: ['realm_user'] });
    t.equal((await desdemona.patch(`/users/${HAMLET}`, { new_email: 'prince@example.com' })).status, 200);
    t.same((await take(queue)).map((e) => e.person), [{ user_id: HAMLET, delivery_email: 'prince@example.com' }, { user_id: HAMLET, new_email: 'prince@example.com' }]);
    t.equal((await othello.get('/users/prince@example.com')).body.user.user_id, HAMLET, 'found by the new address');
    t.same(error(await othello.get('/users/hamlet@example.com')), bad('No such user'), 'not by the old one');
    const restarted = await server.restart();
    t.teardown(() => restarted.destroy());
    t.equal(restarted.services.org.users.get(HAMLET)!.deliveryEmail, 'prince@example.com', 'kept across a restart');
    t.equal((await clientFor(restarted, 'prince@example.com').get('/users/me')).body.user_id, HAMLET, 'the user authenticates with the new address');
  });

  t.test('PATCH /users/{email}: the real address when the requester may see it, else the dummy one', async (t) => {
    const { server, iago, hamlet } = await world(t);
    const host = server.services.org.host;
    t.equal((await iago.patch(`/users/hamlet@example.com`, { full_name: 'By address' })).status, 200);
    t.equal((await iago.patch(`/users/user${HAMLET}@${host}`, { full_name: 'By dummy address' })).status, 200, 'the dummy address works for every user');
    await setUser(server, HAMLET, { emailAddressVisibility: EmailVisibility.NOBODY });
    t.same(error(await iago.patch('/users/hamlet@example.com', { full_name: 'Hidden' })), bad('No such user'), 'a real address the requester may not see names nobody');
    t.equal((await iago.patch(`/users/user${HAMLET}@${host}`, { full_name: 'Hidden' })).status, 200);
    t.equal(server.services.org.users.get(HAMLET)!.fullName, 'Hidden');
    await setUser(server, OTHELLO, { emailAddressVisibility: EmailVisibility.ADMINS });
    t.equal((await iago.patch('/users/othello@example.com', { full_name: 'Seen by admins' })).status, 200, 'administrators see addresses visible to administrators');
    t.same(error(await hamlet.patch('/users/othello@example.com', { full_name: 'x' })), bad('No such user'), 'a member cannot even name them');
    t.same(error(await iago.patch('/users/nobody@example.com', { full_name: 'x' })), bad('No such user'));
    t.same(error(await hamlet.patch(`/users/user${IAGO}@${host}`, { full_name: 'Usurper' })), bad('Insufficient permission'));
  });

  t.test('a deactivated user may be changed; changes survive a restart', async (t) => {
    const { server, iago } = await world(t);
    t.equal((await iago.delete(`/users/${HAMLET}`)).status, 200);
    t.equal((await iago.patch(`/users/${HAMLET}`, { full_name: 'The late Hamlet', role: 300 })).status, 200);
    const restarted = await server.restart();
    t.teardown(() => restarted.destroy());
    const hamlet = restarted.services.org.users.get(HAMLET)!;
    t.same([hamlet.fullName, hamlet.role, hamlet.isActive], ['The late Hamlet', 300, false]);
  });
});
