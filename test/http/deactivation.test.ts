/**
 * Black-box tests of deactivating and reactivating accounts: DELETE /users/{id}, DELETE /users/me,
 * POST /users/{id}/reactivate — who may, Zulip's refusals, the key refused at once, queues removed,
 * the realm_user events on an administrator's queue, messages sent meanwhile not becoming the
 * user's, group memberships kept but not listed, owned bots, and all of it after a restart.
 */
import { test } from 'tap';
import { createAccount } from '../../src/actions/accounts.js';
import { Role } from '../../src/domain/roles.js';
import { Transaction } from '../../src/store/transaction.js';
import { Api } from '../helpers/client.js';
import { clientFor } from '../helpers/server.js';
import { HAMLET, IAGO, OTHELLO, longPoll, register, take } from '../helpers/events.js';
import { error, fetchIds, send, VERONA } from '../helpers/messages.js';
import { world } from '../helpers/world.js';

const NO_PERMISSION = [400, 'BAD_REQUEST', 'Insufficient permission'];
const ids = (list: { user_id: number }[]) => list.map((u) => u.user_id);
const unreadIds = async (api: Parameters<typeof fetchIds>[0]) =>
  fetchIds(api, { anchor: 'newest', num_before: 100, num_after: 0, narrow: [{ operator: 'is', operand: 'unread' }] });

test('deactivation', async (t) => {
  t.test('an administrator deactivates a user: key refused at once, queues gone, realm_user event', async (t) => {
    const { desdemona, server, iago, hamlet, othello } = await world(t);
    const watcher = await register(desdemona, { event_types: ['realm_user'] });
    const hamletQueue = await register(hamlet);
    const parked = longPoll(hamletQueue);
    t.equal((await iago.delete(`/users/${HAMLET}`)).status, 200);
    t.same(error(await hamlet.get('/users/me')), [401, 'UNAUTHORIZED', 'Account is deactivated'], 'the key stops working at once');
    t.equal(server.services.queues.queuesOf(HAMLET).size, 0, 'the queues are removed');
    t.equal((await parked).status, 200, 'a parked poll is answered, as when its queue is deleted');
    t.equal((await take(hamletQueue).catch((e: Error) => e.message)).toString().includes('Account is deactivated'), true, 'and the next poll is refused');
    const events = await take(watcher);
    t.same(events.map(({ id: _, ...e }) => e), [{ type: 'realm_user', op: 'update', person: { user_id: HAMLET, is_active: false } }]);
    const listed = (await othello.get('/users')).body.members.find((u: { user_id: number }) => u.user_id === HAMLET);
    t.equal(listed.is_active, false, 'GET /users says so');
    const state = (await othello.post('/register', { fetch_event_types: ['realm_user', 'realm_user_groups'] })).body;
    t.notOk(ids(state.realm_users).includes(HAMLET));
    t.ok(ids(state.realm_non_active_users).includes(HAMLET), 'listed among the inactive users');
    const members = server.services.org.groups.get(server.services.org.realm.systemGroups['role:members'])!;
    t.ok(members.directMembers.includes(HAMLET), 'group memberships are kept, as Zulip keeps them');
    const listedGroup = state.realm_user_groups.find((g: { id: number }) => g.id === members.id);
    t.notOk(listedGroup.members.includes(HAMLET), 'but a deactivated user is not listed as a member');
    t.same(error(await new Api(server.url).post('/fetch_api_key', { username: 'hamlet@example.com', password: 'parley-demo' })),
      [401, 'USER_DEACTIVATED', 'Account is deactivated'], 'no new key either');
  });

  t.test('refusals, in Zulip words', async (t) => {
    const { server, desdemona, iago, hamlet, shiva } = await world(t);
    t.same(error(await hamlet.delete(`/users/${OTHELLO}`)), NO_PERMISSION, 'members may not');
    t.same(error(await shiva.delete(`/users/${OTHELLO}`)), NO_PERMISSION, 'moderators may not');
    t.same(error(await iago.delete('/users/999')), [400, 'BAD_REQUEST', 'No such user']);
    t.same(error(await iago.delete(`/users/${server.services.org.users.byEmail('desdemona@example.com')!.id}`)), [400, 'BAD_REQUEST', 'Must be an organization owner']);
    const desdemonaId = server.services.org.users.byEmail('desdemona@example.com')!.id;
    t.same(error(await desdemona.delete(`/users/${desdemonaId}`)), [400, 'BAD_REQUEST', 'Cannot deactivate the only organization owner']);
    const notificationBot = [...server.services.org.users.all()].find((u) => u.isSystemBot)!;
    t.same(error(await iago.delete(`/users/${notificationBot.id}`)), [400, 'BAD_REQUEST', 'No such user'], 'the notification bot is nobody to deactivate');
    t.equal((await iago.delete(`/users/${OTHELLO}`)).status, 200);
    t.same(error(await iago.delete(`/users/${OTHELLO}`)), [400, 'BAD_REQUEST', 'User is deactivated']);
    t.same(error(await hamlet.post(`/users/${OTHELLO}/reactivate`)), NO_PERMISSION, 'members may not reactivate');
    const quiet = await register(iago, { event_types: ['realm_user'] });
    t.equal((await iago.post(`/users/${HAMLET}/reactivate`)).status, 200, 'reactivating an active user succeeds, as in Zulip');
    t.same(await take(quiet), [], 'and changes nothing');
    t.same(error(await iago.post('/users/999/reactivate')), [400, 'BAD_REQUEST', 'No such user']);
    // A second owner may be deactivated by an owner.
    t.equal((await desdemona.patch(`/users/${IAGO}`, { role: 100 })).status, 200);
    t.equal((await desdemona.delete(`/users/${IAGO}`)).status, 200, 'an owner deactivates another owner');
    t.same(error(await desdemona.delete(`/users/${desdemonaId}`)), [400, 'BAD_REQUEST', 'Cannot deactivate the only organization owner'], 'a deactivated owner does not count');
  });

  t.test('deactivation_notification_comment: the user is told by mail, as Zulip does', async (t) => {
    const { server, iago, hamlet } = await world(t);
    const mailTo = async (to: string) => (await server.services.outbox.list()).filter((m) => m.to === to);
    t.same(error(await hamlet.delete(`/users/${OTHELLO}`, { deactivation_notification_comment: 'refused' })), NO_PERMISSION);
    t.same(await mailTo('othello@example.com'), [], 'a refused deactivation sends nothing');
    t.equal((await iago.delete(`/users/${OTHELLO}`, { deactivation_notification_comment: '  Please see the front desk.  ' })).status, 200);
    const [mail, ...more] = await mailTo('othello@example.com');
    t.equal(more.length, 0, 'one mail');
    t.match(mail, { subject: 'Notification of account deactivation on Parley Demo', from: server.config.mailFrom });
    t.match(mail!.text, /has been deactivated, and you will no longer be able to log in\./);
    t.match(mail!.text, /The administrators provided the following comment:\n\nPlease see the front desk\.$/, 'the comment, stripped');
    t.equal((await iago.delete('/users/6', { deactivation_notification_comment: '' })).status, 200);
    const [plain] = await mailTo('cordelia@example.com');
    t.ok(plain, 'an empty comment still asks for the mail');
    t.notMatch(plain!.text, /comment/, 'without a comment section');
    t.equal((await iago.delete('/users/7')).status, 200);
    t.same(await mailTo('prospero@example.com'), [], 'no comment: no mail');
  });

  t.test('DELETE /users/me', async (t) => {
    const { desdemona, hamlet, iago } = await world(t);
    const watcher = await register(iago, { event_types: ['realm_user'] });
    const refused = await desdemona.delete('/users/me');
    t.same([refused.status, refused.body.code, refused.body.msg, refused.body.entity, refused.body.is_last_owner],
      [400, 'CANNOT_DEACTIVATE_LAST_USER', 'Cannot deactivate the only organization owner', 'organization owner', true]);
    t.equal((await hamlet.delete('/users/me')).status, 200);
    t.same(error(await hamlet.get('/users/me')), [401, 'UNAUTHORIZED', 'Account is deactivated']);
    t.same((await take(watcher)).map((e) => e.person), [{ user_id: HAMLET, is_active: false }]);
  });

  t.test('messages sent while deactivated do not become the user\'s; reactivation reopens the channels', async (t) => {
    const { server, iago, othello } = await world(t);
    const before = await send(othello, VERONA, 'away', 'before');
    t.equal((await iago.delete(`/users/${HAMLET}`)).status, 200);
    t.notOk(server.services.subscriptions.isSubscribed(HAMLET, VERONA), 'out of the subscriber list while deactivated');
    const meanwhile = await send(othello, VERONA, 'away', 'while hamlet is away');
    const watcher = await register(iago, { event_types: ['realm_user'] });
    t.equal((await iago.post(`/users/${HAMLET}/reactivate`)).status, 200);
    t.same((await take(watcher)).map(({ id: _, ...e }) => e), [{ type: 'realm_user', op: 'update', person: { user_id: HAMLET, is_active: true } }]);
    t.ok(server.services.subscriptions.isSubscribed(HAMLET, VERONA), 'subscribed again');
    const after = await send(othello, VERONA, 'away', 'after');
    const hamlet = clientFor(server, 'hamlet@example.com');
    t.equal((await hamlet.get('/users/me')).status, 200, 'the same key works again');
    const mine = await fetchIds(hamlet, { anchor: 'newest', num_before: 1000, num_after: 0 });
    t.ok(mine.includes(before) && mine.includes(after), 'messages before and after are theirs');
    t.notOk(mine.includes(meanwhile), 'the message sent while deactivated is not');
    const unread = await unreadIds(hamlet);
    t.ok(unread.includes(before) && unread.includes(after));
    t.notOk(unread.includes(meanwhile), 'nor unread');
    const counts = (await hamlet.post('/register', { fetch_event_types: ['message', 'update_message_flags'] })).body.unread_msgs;
    const veronaIds = counts.streams.filter((s: { stream_id: number }) => s.stream_id === VERONA).flatMap((s: { unread_message_ids: number[] }) => s.unread_message_ids);
    t.notOk(veronaIds.includes(meanwhile), 'unread_msgs agrees');
  });

  t.test('peer_remove before realm_user on deactivation, peer_add on reactivation', async (t) => {
    const { server, iago, othello } = await world(t);
    const shared = Object.keys(server.services.subscriptions.channelsOf(HAMLET)).map(Number)
      .filter((id) => server.services.subscriptions.isSubscribed(HAMLET, id) && server.services.subscriptions.isSubscribed(OTHELLO, id));
    t.ok(shared.includes(VERONA));
    const watcher = await register(othello, { event_types: ['subscription', 'realm_user'] });
    t.equal((await iago.delete(`/users/${HAMLET}`)).status, 200);
    const gone = await take(watcher);
    t.same(gone.at(-1).person, { user_id: HAMLET, is_active: false }, 'realm_user comes last');
    const removed = gone.filter((e) => e.type === 'subscription');
    t.ok(removed.every((e) => e.op === 'peer_remove' && e.user_ids.length === 1 && e.user_ids[0] === HAMLET));
    t.same(removed.flatMap((e) => e.stream_ids).sort((a, b) => a - b), [...shared].sort((a, b) => a - b), "one per channel othello sees hamlet's subscription to");
    const listed = (await othello.post('/register', { fetch_event_types: ['subscription'], include_subscribers: true })).body.subscriptions;
    t.notOk(listed.find((s: { stream_id: number }) => s.stream_id === VERONA).subscribers.includes(HAMLET), 'not among the subscribers');
    t.equal((await iago.post(`/users/${HAMLET}/reactivate`)).status, 200);
    const back = await take(watcher);
    t.same(back[0].person, { user_id: HAMLET, is_active: true });
    const added = back.filter((e) => e.type === 'subscription');
    t.ok(added.every((e) => e.op === 'peer_add' && e.user_ids[0] === HAMLET));
    t.same(added.flatMap((e) => e.stream_ids).sort((a, b) => a - b), [...shared].sort((a, b) => a - b));
  });

  t.test('the bots a user owns are deactivated first', async (t) => {
    const { desdemona, server, iago, othello } = await world(t);
    const tx = new Transaction();
    const bot = createAccount(server.services.org, server.services.counters, tx, {
      email: 'hamlet-bot@example.com', fullName: "Hamlet's bot", role: Role.MEMBER, passwordHash: null, isBot: true, botOwnerId: HAMLET, nowMs: Date.now(),
    });
    await server.services.commit(tx);
    const watcher = await register(desdemona, { event_types: ['realm_user'] });
    t.equal((await iago.delete(`/users/${HAMLET}`)).status, 200);
    t.same((await take(watcher)).map((e) => e.person), [{ user_id: bot.id, is_active: false }, { user_id: HAMLET, is_active: false }]);
    t.equal(server.services.org.users.get(bot.id)!.isActive, false);
  });

  t.test('after a restart', async (t) => {
    const w = await world(t);
    t.equal((await w.iago.delete(`/users/${HAMLET}`)).status, 200);
    const restarted = await w.server.restart();
    t.teardown(() => restarted.destroy());
    const { org, subscriptions } = restarted.services;
    t.equal(org.users.get(HAMLET)!.isActive, false, 'still deactivated');
    t.notOk(subscriptions.isSubscribed(HAMLET, VERONA), 'still out of the subscriber lists');
    const iago = clientFor(restarted, 'iago@example.com');
    const othello = clientFor(restarted, 'othello@example.com');
    const meanwhile = await send(othello, VERONA, 'away', 'while away');
    t.equal((await iago.post(`/users/${HAMLET}/reactivate`)).status, 200);
    const after = await send(othello, VERONA, 'away', 'back');
    const hamlet = clientFor(restarted, 'hamlet@example.com');
    const mine = await fetchIds(hamlet, { anchor: 'newest', num_before: 1000, num_after: 0 });
    t.ok(mine.includes(after));
    t.notOk(mine.includes(meanwhile));
  });
});
