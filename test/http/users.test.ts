/**
 * Black-box tests of reading users: GET /users, /users/me, /users/{id}, /users/{email}, email
 * visibility, and access without credentials. Every subtest has its own demo organization.
 */
import { test } from 'tap';
import { world } from '../helpers/world.js';
import { EmailVisibility } from '../../src/domain/users.js';
import { Transaction } from '../../src/store/transaction.js';

test('reading users', async (t) => {
  t.test('GET /users', async (t) => {
    const { hamlet } = await world(t);
    const response = await hamlet.get('/users');
    t.equal(response.status, 200);
    const members = response.body.members as any[];
    t.equal(members.length, 8, 'system bots are not listed');
    const iagoJson = members.find((m) => m.user_id === 2);
    t.same(Object.keys(iagoJson).sort(), [
      'avatar_url', 'avatar_version', 'bot_type', 'date_joined', 'delivery_email', 'email', 'full_name', 'is_active',
      'is_admin', 'is_bot', 'is_guest', 'is_owner', 'role', 'timezone', 'user_id',
    ]);
    t.match(iagoJson, { email: 'iago@example.com', delivery_email: 'iago@example.com', full_name: 'Iago', role: 200, is_admin: true, is_owner: false, is_guest: false, is_bot: false, bot_type: null, is_active: true, timezone: '' });
    t.match(iagoJson.date_joined, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?\+00:00$/);
    t.equal(iagoJson.avatar_url, null, 'client_gravatar defaults to true');
    const withUrls = await hamlet.get('/users', { client_gravatar: false });
    t.match(withUrls.body.members[1].avatar_url, /^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&version=1$/);

    const some = await hamlet.get('/users', { user_ids: [1, 8], include_custom_profile_fields: true });
    t.same(some.body.members.map((m: any) => m.user_id), [1, 8]);
    t.same(some.body.members[0].profile_data, {});
    const badId = await hamlet.get('/users', { user_ids: [1, 999] });
    t.same([badId.status, badId.body.msg], [400, 'Invalid user ID: 999']);

    const notList = await hamlet.get('/users', { user_ids: 5 });
    t.same(notList.body, { result: 'error', msg: 'user_ids is not a list', code: 'BAD_REQUEST', var_name: 'user_ids' });
    const notJson = await hamlet.request('GET', '/users?user_ids=%5B1');
    t.equal(notJson.body.msg, 'user_ids is not valid JSON');
    const notInts = await hamlet.get('/users', { user_ids: ['a'] });
    t.equal(notInts.body.msg, 'user_ids[0] is not an integer');
    const notBool = await hamlet.get('/users', { client_gravatar: 'maybe' });
    t.equal(notBool.body.msg, 'client_gravatar is not valid JSON');
    const notBool2 = await hamlet.get('/users', { client_gravatar: 1 });
    t.equal(notBool2.body.msg, 'client_gravatar is not a boolean');

    const ignored = await hamlet.get('/users', { zebra: 1, apple: 'x', user_ids: [1] });
    t.same(ignored.body.ignored_parameters_unsupported, ['apple', 'zebra'], 'unknown parameters are listed, sorted');
    t.notOk('ignored_parameters_unsupported' in response.body, 'and only when there are any');
  });

  t.test('email visibility', async (t) => {
    const { server, org, anonymous, iago, hamlet } = await world(t);
    const target = org.users.byEmail('cordelia@example.com')!;
    const tx = new Transaction();
    org.users.save({ ...target, emailAddressVisibility: EmailVisibility.ADMINS }, tx);
    await server.services.commit(tx);
    const seenByMember = (await hamlet.get(`/users/${target.id}`)).body.user;
    t.equal(seenByMember.delivery_email, null);
    t.equal(seenByMember.email, `user${target.id}@127.0.0.1`);
    t.match(seenByMember.avatar_url, /gravatar/, 'no client-side gravatar for a hidden email');
    const seenByAdmin = (await iago.get(`/users/${target.id}`)).body.user;
    t.equal(seenByAdmin.delivery_email, 'cordelia@example.com');
    t.equal((await hamlet.get(`/users/${encodeURIComponent(`user${target.id}@127.0.0.1`)}`)).body.user.user_id, target.id, 'found by the dummy address');
    t.equal((await hamlet.get('/users/cordelia@example.com')).body.msg, 'No such user', 'not by an address the viewer may not see');
    t.equal((await iago.get('/users/cordelia@example.com')).body.user.user_id, target.id);
    const cordelia = await anonymous.as('cordelia@example.com', target.apiKey).get('/users/me');
    t.equal(cordelia.body.email, `user${target.id}@127.0.0.1`, 'her API email is the dummy one');
    t.equal(cordelia.body.delivery_email, 'cordelia@example.com');
    const tx2 = new Transaction();
    org.users.save({ ...org.users.get(target.id)!, emailAddressVisibility: EmailVisibility.EVERYONE }, tx2);
    await server.services.commit(tx2);
  });

  t.test('GET /users/me, /users/{id}, /users/{email}', async (t) => {
    const { hamlet } = await world(t);
    const me = await hamlet.get('/users/me');
    t.equal(me.status, 200);
    t.match(me.body, { result: 'success', msg: '', user_id: 4, email: 'hamlet@example.com', full_name: 'King Hamlet', role: 400, is_active: true, max_message_id: -1, profile_data: {} });
    t.type(me.body.avatar_url, 'string', 'the own avatar URL is always given');
    t.same(me.body, (await hamlet.get('/users/me')).body, 'stable across calls (served from a cache)');
    const byId = await hamlet.get('/users/2');
    t.equal(byId.body.user.full_name, 'Iago');
    const byEmail = await hamlet.get('/users/iago@example.com');
    t.same(byEmail.body.user, byId.body.user);
    const profile = await hamlet.get('/users/2', { include_custom_profile_fields: true });
    t.same(profile.body.user.profile_data, {});
    const missing = await hamlet.get('/users/999');
    t.same([missing.status, missing.body.msg], [400, 'No such user']);
    const missingEmail = await hamlet.get('/users/ghost@example.com');
    t.equal(missingEmail.body.msg, 'No such user');
    const bot = await hamlet.get('/users/9');
    t.equal(bot.body.msg, 'No such user', 'system bots are not users of the organization');
  });

  t.test('GET /users without credentials: only with public access', async (t) => {
    const { server, org, anonymous } = await world(t);
    t.equal((await anonymous.get('/users')).status, 401);
    const tx = new Transaction();
    org.saveRealm({ ...org.realm, settings: { ...org.realm.settings, web_public_streams_enabled: true, enable_spectator_access: true } }, tx);
    await server.services.commit(tx);
    const open = await anonymous.get('/users');
    t.equal(open.status, 200);
    t.equal(open.body.members.length, 8);
    t.equal((await anonymous.get('/server_settings')).body.realm_web_public_access_enabled, true);
    const tx2 = new Transaction();
    org.saveRealm({ ...org.realm, settings: { ...org.realm.settings, web_public_streams_enabled: false, enable_spectator_access: false } }, tx2);
    await server.services.commit(tx2);
    t.equal((await anonymous.get('/users')).status, 401);
  });
});
