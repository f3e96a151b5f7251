/**
 * Black-box tests of PATCH /settings: every kind of setting validated as Zulip validates it, each
 * change sent as a `user_settings` event (and as the legacy events older clients take), what others
 * are told of a name, a time zone or an email visibility, the password change, the refused email
 * change, register state and a restart.
 */
import { test } from 'tap';
import { clientFor } from '../helpers/server.js';
import { register, take, HAMLET, VERONA } from '../helpers/events.js';
import { messageWorld, error } from '../helpers/messages.js';
import { Api } from '../helpers/client.js';

const bad = (msg: string) => [400, 'BAD_REQUEST', msg];
const MODERN = { client_capabilities: JSON.stringify({ user_settings_object: true }) };

test('PATCH /settings', async (t) => {
  t.test('each change is a user_settings event on every queue of the user, and register shows it', async (t) => {
    const { hamlet, othello } = await messageWorld(t);
    const one = await register(hamlet, { event_types: ['user_settings'], ...MODERN });
    const two = await register(hamlet, { event_types: ['user_settings'], ...MODERN });
    const peer = await register(othello, { event_types: ['user_settings'], ...MODERN });
    const response = await hamlet.patch('/settings', { enter_sends: true, color_scheme: 2, notification_sound: 'ding', web_home_view: 'recent_topics', default_language: 'de', email_notifications_batching_period_seconds: 300 });
    t.equal(response.status, 200);
    const expected = [
      { type: 'user_settings', op: 'update', property: 'enter_sends', value: true },
      { type: 'user_settings', op: 'update', property: 'color_scheme', value: 2 },
      { type: 'user_settings', op: 'update', property: 'notification_sound', value: 'ding' },
      { type: 'user_settings', op: 'update', property: 'web_home_view', value: 'recent_topics' },
      { type: 'user_settings', op: 'update', property: 'default_language', value: 'de', language_name: 'Deutsch' },
      { type: 'user_settings', op: 'update', property: 'email_notifications_batching_period_seconds', value: 300 },
    ];
    t.same((await take(one)).map(({ id: _, ...e }) => e), expected);
    t.same((await take(two)).map(({ id: _, ...e }) => e), expected, 'the second queue too');
    t.same(await take(peer), [], 'nobody else');
    t.equal((await hamlet.patch('/settings', { enter_sends: true })).status, 200);
    t.same(await take(one), [], 'no event when nothing changes');
    const state = (await hamlet.post('/register', { fetch_event_types: ['user_settings'], ...MODERN })).body.user_settings;
    t.match(state, { enter_sends: true, color_scheme: 2, notification_sound: 'ding', web_home_view: 'recent_topics', default_language: 'de', email_notifications_batching_period_seconds: 300 });
  });

  t.test('older clients get the legacy events and top-level fields', async (t) => {
    const { hamlet } = await messageWorld(t);
    const legacy = await register(hamlet, {});
    const modern = await register(hamlet, MODERN);
    await hamlet.patch('/settings', { twenty_four_hour_time: true, enable_sounds: false, wildcard_mentions_notify: false });
    const events = (await take(legacy)).filter((e) => e.type !== 'user_settings');
    t.match(events, [
      { type: 'update_display_settings', user: 'hamlet@example.com', setting_name: 'twenty_four_hour_time', setting: true },
      { type: 'update_global_notifications', user: 'hamlet@example.com', notification_name: 'enable_sounds', setting: false },
      { type: 'update_global_notifications', notification_name: 'wildcard_mentions_notify', setting: false },
    ]);
    t.same((await take(modern)).map((e) => e.type), ['user_settings', 'user_settings', 'user_settings'], 'clients with user_settings_object get only user_settings');
    const state = (await hamlet.post('/register', { fetch_event_types: ['update_display_settings', 'update_global_notifications'] })).body;
    t.equal(state.twenty_four_hour_time, true);
    t.equal(state.enable_sounds, false);
  });

  t.test('the rules, and one bad value changes nothing', async (t) => {
    const { hamlet, server } = await messageWorld(t);
    const queue = await register(hamlet, { event_types: ['user_settings'], ...MODERN });
    const before = JSON.stringify(server.services.org.users.get(HAMLET));
    const cases: [Record<string, unknown>, unknown[]][] = [
      [{ enter_sends: 'yes' }, bad('enter_sends is not valid JSON')],
      [{ enter_sends: 1 }, bad('enter_sends is not a boolean')],
      [{ color_scheme: 7 }, bad('Invalid color_scheme')],
      [{ web_animate_image_previews: '"sometimes"' }, bad('Invalid web_animate_image_previews')],
      [{ default_language: 'xx' }, bad('Invalid default_language')],
      [{ notification_sound: 'gong' }, bad("Invalid notification sound 'gong'")],
      [{ email_notifications_batching_period_seconds: 0 }, bad('Invalid email batching period: 0 seconds')],
      [{ email_notifications_batching_period_seconds: 7 * 86400 + 1 }, bad('Invalid email batching period: 604801 seconds')],
      [{ timezone: 'Mars/Olympus_Mons' }, bad('timezone is not a recognized time zone')],
      [{ emojiset: 'apple' }, bad('Invalid emojiset')],
      [{ web_home_view: 'somewhere' }, bad('Invalid web_home_view')],
      [{ email_address_visibility: 6 }, bad('Invalid email_address_visibility')],
      [{ automatically_follow_topics_policy: 5 }, bad('Invalid automatically_follow_topics_policy')],
      [{ enter_sends: true, timezone: 'Nowhere/Land' }, bad('timezone is not a recognized time zone')],
      [{ enter_sends: true, full_name: '   ' }, bad('Name too short!')],
      [{ full_name: 'x'.repeat(101) }, bad('Name too long!')],
      [{ full_name: ' x ' }, bad('Name too short!')],
      [{ full_name: 'Hamlet\u0007' }, bad('Invalid characters in name!')],
      [{ full_name: 'Hamlet|15' }, bad('Invalid format!')],
    ];
    for (const [params, expected] of cases) t.same(error(await hamlet.patch('/settings', params)), expected, JSON.stringify(params));
    t.equal(JSON.stringify(server.services.org.users.get(HAMLET)), before, 'nothing changed');
    t.same(await take(queue), [], 'no events');
    t.equal((await hamlet.patch('/settings', { notification_sound: 'none', timezone: 'Europe/Berlin', email_notifications_batching_period_seconds: 604800 })).status, 200, 'the limits themselves pass');
    const bot = clientFor(server, 'notification-bot@example.com');
    t.same(error(await bot.patch('/settings', { enter_sends: true })), bad('This endpoint does not accept bot requests.'), 'as Zulip: for people only');
    t.same(error(await bot.post('/users/me/status', { status_text: 'beep' })), bad('This endpoint does not accept bot requests.'));
  });

  t.test('full name and time zone: a realm_user update to everyone', async (t) => {
    const { hamlet, othello } = await messageWorld(t);
    const own = await register(hamlet, { event_types: ['realm_user', 'user_settings'], ...MODERN });
    const peer = await register(othello, { event_types: ['realm_user'] });
    t.equal((await hamlet.patch('/settings', { full_name: '  Prince Hamlet  ', timezone: 'Europe/Copenhagen' })).status, 200);
    const name = { type: 'realm_user', op: 'update', person: { user_id: HAMLET, full_name: 'Prince Hamlet' } };
    const zone = { type: 'realm_user', op: 'update', person: { email: 'hamlet@example.com', user_id: HAMLET, timezone: 'Europe/Copenhagen' } };
    t.same((await take(peer)).map(({ id: _, ...e }) => e), [name, zone]);
    t.same((await take(own)).map(({ id: _, ...e }) => e), [name, { type: 'user_settings', op: 'update', property: 'timezone', value: 'Europe/Copenhagen' }, zone]);
    t.equal((await othello.get(`/users/${HAMLET}`)).body.user.full_name, 'Prince Hamlet');
    t.equal((await othello.get(`/users/${HAMLET}`)).body.user.timezone, 'Europe/Copenhagen');
  });

  t.test('email address visibility: the API email, and who sees the real one', async (t) => {
    const { server, hamlet, othello, iago } = await messageWorld(t);
    const dummy = `user${HAMLET}@${server.services.org.host}`;
    const peer = await register(othello, { event_types: ['realm_user'] });
    const admin = await register(iago, { event_types: ['realm_user'] });
    t.equal((await hamlet.patch('/settings', { email_address_visibility: 3 })).status, 200);
    const peerEvents = (await take(peer)).map((e) => e.person);
    t.same(peerEvents.slice(0, 2), [{ user_id: HAMLET, delivery_email: null }, { user_id: HAMLET, new_email: dummy }], 'a member loses the real address and learns the new API email');
    t.match(peerEvents.slice(2), [{ user_id: HAMLET, avatar_source: 'G', avatar_url: /^https:\/\/secure\.gravatar\.com\/avatar\//, avatar_version: 1 }], 'then the avatar URL, as Zulip');
    t.same((await take(admin)).map((e) => Object.keys(e.person).sort()), [['new_email', 'user_id'], ['avatar_source', 'avatar_url', 'avatar_url_medium', 'avatar_version', 'user_id']], 'an administrator still sees the real address');
    const seen = (await othello.get(`/users/${HAMLET}`)).body.user;
    t.equal(seen.email, dummy);
    t.equal(seen.delivery_email, null);
    t.equal((await iago.get(`/users/${HAMLET}`)).body.user.delivery_email, 'hamlet@example.com');
    t.equal((await hamlet.post('/register', { fetch_event_types: ['user_settings'], ...MODERN })).body.user_settings.email_address_visibility, 3);
    t.equal((await new Api(server.url, dummy, server.services.org.users.get(HAMLET)!.apiKey).get('/users/me')).status, 200, 'the new API email authenticates');
  });

  t.test('password change', async (t) => {
    const { server, hamlet } = await messageWorld(t);
    const fetchKey = (password: string) => new Api(server.url).post('/fetch_api_key', { username: 'hamlet@example.com', password });
    t.same(error(await hamlet.patch('/settings', { old_password: 'wrong', new_password: 'a new secret' })), bad('Wrong password!'));
    t.same(error(await hamlet.patch('/settings', { new_password: 'a new secret' })), bad('Wrong password!'), 'the old password is required');
    t.same(error(await hamlet.patch('/settings', { old_password: 'parley-demo', new_password: 'short' })), bad('New password is too weak!'));
    t.equal((await fetchKey('parley-demo')).status, 200, 'refusals changed nothing');
    t.equal((await hamlet.patch('/settings', { old_password: 'parley-demo', new_password: 'a new secret' })).status, 200);
    t.equal((await fetchKey('a new secret')).status, 200, 'the new password works');
    t.equal((await fetchKey('parley-demo')).status, 401, 'the old one does not');
  });

  t.test('email change: checked as Zulip checks it, then refused (no confirmation mail is sent)', async (t) => {
    const { hamlet } = await messageWorld(t);
    t.equal((await hamlet.patch('/settings', { email: 'hamlet@example.com' })).status, 200, 'the same address is no change');
    t.same(error(await hamlet.patch('/settings', { email: 'not an address' })), bad('Invalid address.'));
    t.same(error(await hamlet.patch('/settings', { email: 'othello@example.com' })), bad('Email is already in use.'));
    t.same(error(await hamlet.patch('/settings', { email: 'prince@example.com' })), bad('Email address changes need a confirmation email, which this server does not send.'));
  });

  t.test('sending reads the automatic topic-visibility policies', async (t) => {
    const { hamlet } = await messageWorld(t);
    t.equal((await hamlet.patch('/settings', { automatically_follow_topics_policy: 4 })).status, 200);
    const response = await hamlet.post('/messages', { type: 'stream', to: VERONA, topic: 'not followed', content: 'hi' });
    t.equal(response.body.automatic_new_visibility_policy, undefined, 'never: starting a topic follows nothing');
    t.equal((await hamlet.patch('/settings', { automatically_follow_topics_policy: 3 })).status, 200);
    t.equal((await hamlet.post('/messages', { type: 'stream', to: VERONA, topic: 'followed', content: 'hi' })).body.automatic_new_visibility_policy, 3);
  });

  t.test('after a restart', async (t) => {
    const { server, hamlet } = await messageWorld(t);
    const queue = await register(hamlet, { event_types: ['user_settings'], ...MODERN });
    await hamlet.patch('/settings', { enable_drafts_synchronization: false, timezone: 'Asia/Tokyo', starred_message_counts: false, full_name: 'Hamlet, Prince of Denmark' });
    await take(queue);
    const restarted = await server.restart();
    t.teardown(() => restarted.destroy());
    const again = clientFor(restarted, 'hamlet@example.com');
    const state = (await again.post('/register', { fetch_event_types: ['user_settings', 'realm_user'], ...MODERN })).body;
    t.match(state.user_settings, { enable_drafts_synchronization: false, timezone: 'Asia/Tokyo', starred_message_counts: false });
    t.equal(state.full_name, 'Hamlet, Prince of Denmark');
    await again.patch('/settings', { enable_drafts_synchronization: true });
    t.match(await take({ ...queue, api: again }), [{ type: 'user_settings', op: 'update', property: 'enable_drafts_synchronization', value: true }], 'a restored queue hears the change');
  });
  t.test('the typing settings are obeyed', async (t) => {
    const { hamlet, othello } = await messageWorld(t);
    const peer = await register(othello, { event_types: ['typing'], client_capabilities: JSON.stringify({ stream_typing_notifications: true }) });
    await hamlet.patch('/settings', { send_private_typing_notifications: false, send_stream_typing_notifications: false });
    t.same(error(await hamlet.post('/typing', { op: 'start', to: JSON.stringify([5]) })), bad('User has disabled typing notifications for direct messages'));
    t.same(error(await hamlet.post('/typing', { type: 'stream', op: 'start', stream_id: VERONA, topic: 'x' })), bad('User has disabled typing notifications for channel messages'));
    await hamlet.patch('/settings', { send_private_typing_notifications: true, send_stream_typing_notifications: true });
    t.equal((await hamlet.post('/typing', { op: 'start', to: JSON.stringify([5]) })).status, 200);
    t.equal((await take(peer)).length, 1, 'othello is told');
    await othello.patch('/settings', { receives_typing_notifications: false });
    t.equal((await hamlet.post('/typing', { op: 'start', to: JSON.stringify([5]) })).status, 200);
    t.equal((await hamlet.post('/typing', { type: 'stream', op: 'start', stream_id: VERONA, topic: 'x' })).status, 200);
    t.same(await take(peer), [], 'not any more: he turned typing notifications off');
  });
  t.test('presence_enabled off: no longer shown to anyone', async (t) => {
    const { hamlet, othello } = await messageWorld(t);
    await hamlet.post('/users/me/presence', { status: 'active' });
    t.ok('hamlet@example.com' in (await othello.post('/users/me/presence', { status: 'active' })).body.presences);
    const peer = await register(othello, { event_types: ['presence'] });
    t.equal((await hamlet.patch('/settings', { presence_enabled: false })).status, 200);
    t.notOk('hamlet@example.com' in (await othello.post('/users/me/presence', { status: 'active' })).body.presences, 'left out of presences');
    t.notOk('hamlet@example.com' in (await othello.post('/register', { fetch_event_types: ['presence'] })).body.presences);
    await hamlet.post('/users/me/presence', { status: 'idle' });
    t.same((await take(peer)).filter((e) => e.user_id === HAMLET), [], 'and reports make no events');
    await hamlet.patch('/settings', { presence_enabled: true });
    await hamlet.post('/users/me/presence', { status: 'active' });
    t.ok('hamlet@example.com' in (await othello.post('/users/me/presence', { status: 'active' })).body.presences, 'turned on again: shown again');
  });
});
