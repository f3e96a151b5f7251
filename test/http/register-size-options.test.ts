/**
 * Black-box tests of the size-cutting options of POST /register that depend on who is long-term
 * idle (28 days without a presence report since joining, as Zulip's soft deactivation):
 * `user_avatar_url_field_optional` and `include_subscribers=partial`; and that the user lists,
 * kept serialised per role, follow a change at once.
 */
import { test } from 'tap';
import { world } from '../helpers/world.js';
import { Transaction } from '../../src/store/transaction.js';
import { EmailVisibility } from '../../src/domain/users.js';
import { HAMLET, OTHELLO } from '../helpers/events.js';

const DAY = 86400;
type Entry = { user_id: number; avatar_url?: string | null; full_name: string };

test('POST /register: size-cutting options', async (t) => {
  t.test('user_avatar_url_field_optional leaves out the avatar of the long-term idle only', async (t) => {
    const w = await world(t, { clockStart: Date.now() });
    const { othello, hamlet } = w;
    const idle = await w.addUsers('idle', 3);
    w.advance(29 * DAY);
    t.equal((await hamlet.post('/users/me/presence', { status: 'active' })).status, 200);
    const fresh = await w.addUsers('fresh', 2);
    const users = async (params: Record<string, unknown>) => {
      const response = await othello.post('/register', { fetch_event_types: ['realm_user'], client_gravatar: false, ...params });
      t.equal(response.status, 200);
      return new Map<number, Entry>(response.body.realm_users.map((u: Entry) => [u.user_id, u]));
    };
    const optional = await users({ client_capabilities: { user_avatar_url_field_optional: true } });
    for (const user of idle) t.notOk('avatar_url' in optional.get(user.id)!, `no avatar_url for idle user ${user.id}`);
    for (const user of fresh) t.type(optional.get(user.id)!.avatar_url, 'string', `avatar_url for newly joined ${user.id}`);
    t.type(optional.get(HAMLET)!.avatar_url, 'string', 'avatar_url for a user seen recently');
    const again = await users({ client_capabilities: { user_avatar_url_field_optional: true } });
    t.same([...again.values()], [...optional.values()], 'the same answer again');
    t.ok(w.server.services.readCaches.userLists.counts.reused > 0, 'registrations share the serialised lists');
    const required = await users({});
    t.equal(required.size, optional.size, 'the same users either way');
    for (const entry of required.values()) t.type(entry.avatar_url, 'string', `without the capability every user has avatar_url (${entry.user_id})`);

    // A change to a user is seen by the next registration (the lists are kept per role).
    t.equal((await hamlet.patch('/settings', { full_name: 'Prince Hamlet' })).status, 200);
    t.equal((await users({ client_capabilities: { user_avatar_url_field_optional: true } })).get(HAMLET)!.full_name, 'Prince Hamlet');
  });

  t.test("one's own entry in the shared list, after names that are not ASCII", async (t) => {
    const w = await world(t);
    const { org, server, hamlet, othello } = w;
    const tx = new Transaction();
    // Hamlet's email is for administrators only: the list members share shows null, his own shows it.
    org.users.save({ ...org.users.get(HAMLET)!, emailAddressVisibility: EmailVisibility.ADMINS }, tx);
    for (const user of [...org.users.all()].filter((u) => u.id < HAMLET)) org.users.save({ ...user, fullName: `Ünïcödé ${user.id} 🎭` }, tx);
    await server.services.commit(tx);
    const entry = async (api: typeof hamlet) => {
      const response = await api.post('/register', { fetch_event_types: ['realm_user'] });
      t.equal(response.status, 200, 'the answer is whole JSON');
      return response.body.realm_users as (Entry & { delivery_email: string | null })[];
    };
    const own = await entry(hamlet);
    t.equal(own.find((u) => u.user_id === HAMLET)!.delivery_email, 'hamlet@example.com', 'his own email in his own entry');
    t.ok(own.filter((u) => u.user_id < HAMLET).every((u) => u.full_name.startsWith('Ünïcödé')), 'the entries before it intact');
    const other = await entry(othello);
    t.equal(other.find((u) => u.user_id === HAMLET)!.delivery_email, null, 'not in the list another member gets');
    t.same(own.map((u) => u.user_id), other.map((u) => u.user_id), 'the same users');
  });

  t.test("include_subscribers=partial lists a large channel's bots and recently active users", async (t) => {
    const w = await world(t, { clockStart: Date.now() });
    const { iago, othello, hamlet } = w;
    const crowd = await w.addUsers('crowd', 1000);
    const bot = await iago.post('/bots', { full_name: 'Crowd bot', short_name: 'crowd', bot_type: 1 });
    t.equal(bot.status, 200);
    const principals = [...crowd.map((u) => u.id), HAMLET, OTHELLO, bot.body.user_id];
    t.equal((await iago.post('/users/me/subscriptions', { subscriptions: [{ name: 'Crowd' }], principals })).status, 200);
    t.equal((await iago.post('/users/me/subscriptions', { subscriptions: [{ name: 'Small' }], principals: crowd.slice(0, 5).map((u) => u.id) })).status, 200);
    w.advance(29 * DAY);
    t.equal((await hamlet.post('/users/me/presence', { status: 'active' })).status, 200);
    const crowdId = w.org.channels.byName('Crowd')!.id;
    const smallId = w.org.channels.byName('Small')!.id;
    const state = async (include: unknown) => {
      const body = (await othello.post('/register', { fetch_event_types: ['subscription'], include_subscribers: include })).body;
      const find = (id: number) => body.subscriptions.find((s: { stream_id: number }) => s.stream_id === id) ?? body.never_subscribed.find((s: { stream_id: number }) => s.stream_id === id);
      return { crowd: find(crowdId), small: find(smallId) };
    };
    const partial = await state('partial');
    t.notOk('subscribers' in partial.crowd, 'a channel of 1,000 or more has no full list');
    t.same([...partial.crowd.partial_subscribers].sort((a: number, b: number) => a - b), [HAMLET, bot.body.user_id].sort((a, b) => a - b), 'its bots and its users active within 28 days');
    t.equal(partial.crowd.subscriber_count, principals.length, 'the count is complete');
    t.same(partial.small.subscribers, crowd.slice(0, 5).map((u) => u.id), 'a small channel lists everyone');
    t.notOk('partial_subscribers' in partial.small);
    const full = await state(true);
    t.equal(full.crowd.subscribers.length, principals.length, 'include_subscribers=true lists everyone');
    t.notOk('partial_subscribers' in full.crowd);
    const none = await state(false);
    t.notOk('subscribers' in none.crowd || 'partial_subscribers' in none.crowd, 'none without include_subscribers');
  });
});
