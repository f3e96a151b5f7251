/**
 * Black-box tests of user status: POST /users/me/status, the administrators' POST
 * /users/{user_id}/status and GET /users/{user_id}/status, the `user_status` events everyone
 * receives and the `user_status` register state, before and after a restart.
 */
import { test } from 'tap';
import { world } from '../helpers/world.js';
import { clientFor } from '../helpers/server.js';
import { HAMLET, OTHELLO, register, take } from '../helpers/events.js';
import { BOT, CORDELIA } from '../helpers/demo-ids.js';
import { Transaction } from '../../src/store/transaction.js';
import type { ApiResponse } from '../helpers/client.js';

const error = (response: ApiResponse) => ({ status: response.status, code: response.body.code, msg: response.body.msg });
const bad = (msg: string) => ({ status: 400, code: 'BAD_REQUEST', msg });

test('user status', async (t) => {
  t.test('setting, changing and clearing one\'s own status, seen by everyone', async (t) => {
    const { hamlet, othello } = await world(t);
    const own = await register(hamlet, { event_types: ['user_status'] });
    const other = await register(hamlet, { event_types: ['user_status'] });
    const peer = await register(othello, { event_types: ['user_status'] });
    t.equal((await hamlet.post('/users/me/status', { status_text: '  on vacation  ', emoji_name: 'car' })).status, 200);
    const set = { type: 'user_status', user_id: HAMLET, status_text: 'on vacation', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' };
    t.match(await take(own), [set], 'text trimmed, emoji code and type found by name');
    t.match(await take(other), [set], "the user's second queue hears it");
    t.match(await take(peer), [set], 'so does everyone else');
    t.same((await othello.get(`/users/${HAMLET}/status`)).body.status, { status_text: 'on vacation', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' });

    // Only what is passed changes.
    t.equal((await hamlet.post('/users/me/status', { status_text: 'back soon' })).status, 200);
    const [textOnly] = await take(other);
    t.same(Object.keys(textOnly).sort(), ['id', 'status_text', 'type', 'user_id'], 'the event names only the text');
    t.same((await othello.get(`/users/${HAMLET}/status`)).body.status, { status_text: 'back soon', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' });

    t.equal((await hamlet.post('/users/me/status', { emoji_name: '' })).status, 200);
    t.match(await take(other), [{ type: 'user_status', user_id: HAMLET, emoji_name: '', emoji_code: '', reaction_type: 'unicode_emoji' }], 'an empty name clears the emoji');
    t.equal((await hamlet.post('/users/me/status', { status_text: '' })).status, 200);
    t.match(await take(other), [{ type: 'user_status', user_id: HAMLET, status_text: '' }]);
    t.same((await othello.get(`/users/${HAMLET}/status`)).body.status, {}, 'nothing set: an empty object');

    t.equal((await hamlet.post('/users/me/status', { emoji_name: 'zulip', reaction_type: 'service_extra_emoji' })).status, 200);
    t.match(await take(other), [{ emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' }], "the service's extra emoji, under either name of its type");
  });

  t.test('the rules', async (t) => {
    const { hamlet, server } = await world(t);
    const before = server.services.org.users.get(HAMLET);
    t.same(error(await hamlet.post('/users/me/status', {})), bad('Client did not pass any new values.'));
    t.same(error(await hamlet.post('/users/me/status', { emoji_code: '1f697' })), bad('Client did not pass any new values.'), 'as Zulip: a code alone is no new value');
    t.same(error(await hamlet.post('/users/me/status', { status_text: 'In a meeting', emoji_code: '1f697' })), bad('Client must pass emoji_name if they pass either emoji_code or reaction_type.'));
    t.same(error(await hamlet.post('/users/me/status', { status_text: 'In a meeting', reaction_type: 'unicode_emoji' })), bad('Client must pass emoji_name if they pass either emoji_code or reaction_type.'));
    t.same(error(await hamlet.post('/users/me/status', { status_text: 'x'.repeat(61) })), bad('status_text is too long (limit: 60 characters)'));
    t.equal((await hamlet.post('/users/me/status', { status_text: '🙂'.repeat(60) })).status, 200, '60 characters, counted as characters');
    t.same(error(await hamlet.post('/users/me/status', { emoji_name: 'invalid' })), bad("Emoji 'invalid' does not exist"));
    t.same(error(await hamlet.post('/users/me/status', { emoji_name: 'car', emoji_code: '1f4bb' })), bad('Invalid emoji name.'));
    t.same(error(await hamlet.post('/users/me/status', { emoji_name: 'car', emoji_code: 'zzz', reaction_type: 'unicode_emoji' })), bad('Invalid emoji code.'));
    t.same(error(await hamlet.post('/users/me/status', { emoji_name: 'car', emoji_code: '1f697', reaction_type: 'realm_emoji' })), bad('Invalid custom emoji.'));
    t.same(error(await hamlet.post('/users/me/status', { emoji_name: 'car', emoji_code: '1f697', reaction_type: 'party' })), bad('Invalid emoji type.'));
    t.same(error(await hamlet.post('/users/me/status', { emoji_name: 'zulip', emoji_code: 'other', reaction_type: 'zulip_extra_emoji' })), bad('Invalid emoji code.'));
    t.same(server.services.org.users.get(HAMLET)!.status?.emojiName ?? '', before!.status?.emojiName ?? '', 'refusals changed nothing');
    t.same(error(await hamlet.get('/users/4242/status')), bad('No such user'));
    t.same(error(await hamlet.get(`/users/${BOT}/status`)), bad('No such user'), 'bots have no status');
    const tx = new Transaction();
    server.services.org.users.save({ ...server.services.org.users.get(CORDELIA)!, isActive: false }, tx);
    await server.services.commit(tx);
    t.same(error(await hamlet.get(`/users/${CORDELIA}/status`)), bad('User is deactivated'));
  });

  t.test('administrators set another user\'s status; others may not', async (t) => {
    const { iago, hamlet, othello } = await world(t);
    const queue = await register(othello, { event_types: ['user_status'] });
    t.same(error(await hamlet.post(`/users/${OTHELLO}/status`, { status_text: 'busy' })), bad('Insufficient permission'));
    t.same(error(await hamlet.post(`/users/${HAMLET}/status`, { status_text: 'busy' })), bad('Insufficient permission'), 'not even for oneself: the endpoint is for administrators');
    t.same(await take(queue), [], 'refused: no event');
    t.same(error(await iago.post('/users/4242/status', { status_text: 'busy' })), bad('No such user'));
    t.same(error(await iago.post(`/users/${OTHELLO}/status`, {})), bad('Client did not pass any new values.'));
    t.same(error(await iago.post(`/users/${OTHELLO}/status`, { status_text: 'busy', emoji_code: '1f697' })), bad('Client must pass emoji_name if they pass either emoji_code or reaction_type.'));
    t.equal((await iago.post(`/users/${OTHELLO}/status`, { status_text: 'in a meeting', emoji_name: 'calendar' })).status, 200);
    t.match(await take(queue), [{ type: 'user_status', user_id: OTHELLO, status_text: 'in a meeting', emoji_name: 'calendar' }]);
    t.match((await hamlet.get(`/users/${OTHELLO}/status`)).body.status, { status_text: 'in a meeting', emoji_name: 'calendar' });
  });

  t.test('away is the inverse of presence_enabled', async (t) => {
    const { hamlet, othello } = await world(t);
    const own = await register(hamlet, { event_types: ['user_status', 'user_settings'] });
    t.equal((await hamlet.post('/users/me/status', { away: true })).status, 200);
    t.match(await take(own), [
      { type: 'user_settings', op: 'update', property: 'presence_enabled', value: false },
      { type: 'user_status', user_id: HAMLET, away: true },
    ]);
    t.same((await othello.get(`/users/${HAMLET}/status`)).body.status, { away: true });
    const state = await hamlet.post('/register', { fetch_event_types: ['user_settings'] });
    t.equal(state.body.user_settings.presence_enabled, false);
  });

  t.test('register state, and after a restart', async (t) => {
    const { server, hamlet, othello } = await world(t);
    await hamlet.post('/users/me/status', { status_text: 'reading', emoji_name: 'book' });
    await othello.post('/users/me/status', { emoji_name: 'tada' });
    const expected = {
      [HAMLET]: { status_text: 'reading', emoji_name: 'book', emoji_code: '1f4d6', reaction_type: 'unicode_emoji' },
      [OTHELLO]: { emoji_name: 'tada', emoji_code: '1f389', reaction_type: 'unicode_emoji' },
    };
    t.same((await hamlet.post('/register', { fetch_event_types: ['user_status'] })).body.user_status, expected);
    const queue = await register(othello, { event_types: ['user_status'] });
    const restarted = await server.restart();
    t.teardown(() => restarted.destroy());
    const again = clientFor(restarted, 'hamlet@example.com');
    t.same((await again.post('/register', { fetch_event_types: ['user_status'] })).body.user_status, expected, 'kept across a restart');
    t.equal((await again.post('/users/me/status', { status_text: '' })).status, 200);
    t.match(await take({ ...queue, api: clientFor(restarted, 'othello@example.com') }), [{ type: 'user_status', user_id: HAMLET, status_text: '' }], 'a queue restored after the restart hears the change');
  });
});
