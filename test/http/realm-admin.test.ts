/**
 * Black-box tests of organization settings: PATCH /realm (plain properties, limits, group
 * settings, channel-valued settings, owner-only settings, Zulip's answer listing what changed,
 * the `realm` events and register), PATCH /realm/user_settings_defaults (events, register, new
 * accounts), POST /realm/test_welcome_bot_custom_message, and all of it after a restart.
 */
import { test } from 'tap';
import type { Api } from '../helpers/client.js';
import { clientFor } from '../helpers/server.js';
import { register, take } from '../helpers/events.js';
import { error, CORE_TEAM, VERONA } from '../helpers/messages.js';
import { world } from '../helpers/world.js';

const bad = (msg: string) => [400, 'BAD_REQUEST', msg];
const realmState = async (api: Api) => (await api.post('/register', { fetch_event_types: ['realm'] })).body;
async function systemGroup(api: Api, name: string): Promise<number> {
  const groups = (await api.get('/user_groups')).body.user_groups as { id: number; name: string }[];
  return groups.find((group) => group.name === name)!.id;
}

test('organization settings', async (t) => {
  t.test('name, description and plain settings: answer, events and register', async (t) => {
    const { iago, hamlet } = await world(t);
    const watcher = await register(hamlet, { event_types: ['realm'] });
    const answer = await iago.patch('/realm', { name: 'Elsinore', description: 'A castle', inline_image_preview: false, digest_weekday: 4, allow_message_editing: false, message_content_edit_limit_seconds: 'unlimited' });
    t.same(answer.body, { result: 'success', msg: '', name: 'updated', description: 'updated', allow_message_editing: false, message_content_edit_limit_seconds: null, digest_weekday: 4, inline_image_preview: false });
    t.same((await take(watcher)).map(({ id: _id, ...event }) => event), [
      { type: 'realm', op: 'update', property: 'name', value: 'Elsinore' },
      { type: 'realm', op: 'update', property: 'description', value: 'A castle' },
      { type: 'realm', op: 'update_dict', property: 'default', data: { allow_message_editing: false } },
      { type: 'realm', op: 'update_dict', property: 'default', data: { message_content_edit_limit_seconds: null } },
      { type: 'realm', op: 'update', property: 'digest_weekday', value: 4 },
      { type: 'realm', op: 'update', property: 'inline_image_preview', value: false },
    ]);
    t.match(await realmState(hamlet), {
      realm_name: 'Elsinore', realm_description: '<p>A castle</p>', realm_inline_image_preview: false, realm_digest_weekday: 4,
      realm_allow_message_editing: false, realm_message_content_edit_limit_seconds: null,
    });
    t.same((await iago.patch('/realm', { name: 'Elsinore' })).body, { result: 'success', msg: '' }, 'an unchanged value is not reported');
    t.same(await take(watcher), [], 'nor announced');
    t.equal((await iago.patch('/realm', { topics_policy: 'disable_empty_topic', message_edit_history_visibility_policy: 'none' })).status, 200);
    t.match(await realmState(hamlet), { realm_topics_policy: 'disable_empty_topic', realm_mandatory_topics: true, realm_message_edit_history_visibility_policy: 'none', realm_allow_edit_history: false });
    t.same(error(await hamlet.post('/messages', { type: 'stream', to: VERONA, topic: '', content: 'no topic' })), bad('Sending messages to the general chat is not allowed in this channel.'));
  });

  t.test('who may: administrators, and owners for some', async (t) => {
    const { iago, desdemona, hamlet } = await world(t);
    t.same(error(await hamlet.patch('/realm', { name: 'Mine' })), bad('Must be an organization administrator'));
    for (const params of [{ invite_required: false }, { waiting_period_threshold: 3 }, { message_retention_days: 30 }, { emails_restricted_to_domains: true }]) {
      t.same(error(await iago.patch('/realm', params)), bad('Must be an organization owner'), Object.keys(params)[0]);
    }
    t.same((await desdemona.patch('/realm', { invite_required: false, waiting_period_threshold: 3, message_retention_days: 'unlimited' })).body,
      { result: 'success', msg: '', invite_required: false, waiting_period_threshold: 3 }, 'unlimited retention is already the value');
    t.same(error(await desdemona.patch('/realm', { message_retention_days: 0 })), bad("Bad value for 'message_retention_days': 0"));
    t.same(error(await desdemona.patch('/realm', { authentication_methods: { Email: false } })), bad('At least one authentication method must be enabled.'));
    t.same(error(await desdemona.patch('/realm', { authentication_methods: { GitHub: true } })), bad('Invalid authentication method: GitHub.'));
  });

  t.test('validation: nothing changes when a part is refused', async (t) => {
    const { iago, desdemona, hamlet } = await world(t);
    t.same(error(await iago.patch('/realm', { name: 'Kept', default_language: 'xx' })), bad("Invalid language 'xx'"));
    t.same(error(await iago.patch('/realm', { name: 'Kept', video_chat_provider: 42 })), bad('Invalid video_chat_provider 42'));
    t.same(error(await iago.patch('/realm', { name: 'Kept', giphy_rating: 9 })), bad('Invalid giphy_rating 9'));
    t.same(error(await iago.patch('/realm', { name: 'Kept', message_content_delete_limit_seconds: 0 })), bad("Bad value for 'message_content_delete_limit_seconds': 0"));
    t.same(error(await iago.patch('/realm', { name: 'Kept', jitsi_server_url: 'not a url' })), bad('jitsi_server_url is not an allowed_type'));
    t.same(error(await iago.patch('/realm', { name: 'x'.repeat(41) })), bad('name is too long (limit: 40 characters)'));
    t.same(error(await iago.patch('/realm', { name: 'Kept', digest_weekday: 7 })), bad('Invalid digest_weekday'));
    t.same(error(await iago.patch('/realm', { string_id: 'elsinore' })), bad('Must be an organization owner'));
    t.same(error(await desdemona.patch('/realm', { string_id: 'elsinore' })), bad('Must be a demo organization.'));
    t.equal((await realmState(hamlet)).realm_name, 'Parley Demo');
    t.same((await iago.patch('/realm', { jitsi_server_url: 'https://meet.example.com', default_code_block_language: 'python', org_type: 20 })).body,
      { result: 'success', msg: '', default_code_block_language: 'updated', jitsi_server_url: 'updated', org_type: 20 });
    t.match(await realmState(hamlet), { realm_jitsi_server_url: 'https://meet.example.com', realm_default_code_block_language: 'python', realm_org_type: 20 });
    t.equal((await iago.patch('/realm', { jitsi_server_url: 'default' })).body.jitsi_server_url, null);
  });

  t.test('group settings as {new, old}: update_dict events and what they allow', async (t) => {
    const { iago, desdemona, hamlet } = await world(t);
    const watcher = await register(hamlet, { event_types: ['realm'] });
    const admins = await systemGroup(iago, 'role:administrators');
    const members = await systemGroup(iago, 'role:members');
    const everyone = await systemGroup(iago, 'role:everyone');
    t.same(error(await iago.patch('/realm', { can_create_public_channel_group: { new: admins, old: admins } })),
      [400, 'EXPECTATION_MISMATCH', "'old' value does not match the expected value."]);
    t.same(error(await iago.patch('/realm', { can_create_public_channel_group: { new: everyone } })),
      bad("'can_create_public_channel_group' setting cannot be set to 'role:everyone' group."));
    t.same(error(await iago.patch('/realm', { can_manage_all_groups: { new: admins } })), bad('Must be an organization owner'));
    t.same(error(await iago.patch('/realm', { can_access_all_users_group: { new: admins } })), bad("'can_access_all_users_group' setting cannot be set to 'role:administrators' group."));
    t.same(error(await iago.patch('/realm', { can_access_all_users_group: { new: { direct_members: [4], direct_subgroups: [] } } })), bad("'can_access_all_users_group' must be a system user group."));
    const answer = await iago.patch('/realm', { can_create_public_channel_group: { new: admins, old: members } });
    t.same(answer.body, { result: 'success', msg: '', can_create_public_channel_group: admins });
    t.same((await take(watcher)).map((e) => [e.op, e.data]), [['update_dict', { can_create_public_channel_group: admins }]]);
    const created = await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'new place' }] });
    t.same(error(created), bad('Insufficient permission'), 'members may no longer create public channels');
    t.equal((await desdemona.patch('/realm', { can_invite_users_group: { new: { direct_members: [4], direct_subgroups: [admins] } } })).status, 200);
    t.same((await realmState(hamlet)).realm_can_invite_users_group, { direct_members: [4], direct_subgroups: [admins] });
  });

  t.test('channel-valued settings', async (t) => {
    const { iago, hamlet } = await world(t);
    const watcher = await register(hamlet, { event_types: ['realm'] });
    t.same(error(await iago.patch('/realm', { moderation_request_channel_id: VERONA })), bad('Moderation request channel must be private.'));
    t.same(error(await iago.patch('/realm', { signup_announcements_stream_id: 9999 })), bad('Invalid channel ID'));
    t.same((await iago.patch('/realm', { new_stream_announcements_stream_id: VERONA, moderation_request_channel_id: CORE_TEAM })).body,
      { result: 'success', msg: '', moderation_request_channel_id: CORE_TEAM, new_stream_announcements_stream_id: VERONA });
    t.same((await take(watcher)).map((e) => e.data), [{ moderation_request_channel_id: CORE_TEAM }, { new_stream_announcements_stream_id: VERONA }]);
    t.match(await realmState(hamlet), { realm_new_stream_announcements_stream_id: VERONA, realm_moderation_request_channel_id: CORE_TEAM });
    t.equal((await iago.delete(`/streams/${VERONA}`)).status, 200);
    t.same((await take(watcher)).map((e) => e.data), [{ new_stream_announcements_stream_id: -1 }], 'archiving a channel takes it out of the settings');
    t.equal((await iago.patch('/realm', { moderation_request_channel_id: -1 })).status, 200);
    t.equal((await realmState(hamlet)).realm_moderation_request_channel_id, -1);
  });

  t.test('defaults of new users\' settings', async (t) => {
    const { server, iago, hamlet } = await world(t);
    const watcher = await register(hamlet, { event_types: ['realm_user_settings_defaults'] });
    t.same(error(await hamlet.patch('/realm/user_settings_defaults', { left_side_userlist: true })), bad('Must be an organization administrator'));
    t.same(error(await iago.patch('/realm/user_settings_defaults', { emojiset: 'unicorn' })), bad('Invalid emojiset'));
    t.same(error(await iago.patch('/realm/user_settings_defaults', { color_scheme: 9 })), bad('Invalid color_scheme'));
    t.equal((await iago.patch('/realm/user_settings_defaults', { left_side_userlist: true, emojiset: 'text', enter_sends: false, email_address_visibility: 3 })).status, 200);
    t.same((await take(watcher)).map((e) => [e.type, e.op, e.property, e.value]), [
      ['realm_user_settings_defaults', 'update', 'left_side_userlist', true],
      ['realm_user_settings_defaults', 'update', 'emojiset', 'text'],
      ['realm_user_settings_defaults', 'update', 'email_address_visibility', 3],
    ], 'enter_sends already had its value');
    const defaults = (await hamlet.post('/register', { fetch_event_types: ['realm_user_settings_defaults'] })).body.realm_user_settings_defaults;
    t.match(defaults, { left_side_userlist: true, emojiset: 'text', enter_sends: false, email_address_visibility: 3, twenty_four_hour_time: false });
    t.ok(Array.isArray(defaults.emojiset_choices) && Array.isArray(defaults.available_notification_sounds));
    t.notOk('timezone' in defaults);
    const mine = (await hamlet.post('/register', { fetch_event_types: ['user_settings'] })).body.user_settings;
    t.match(mine, { left_side_userlist: false, emojiset: 'google' }, 'existing users keep their settings');
    t.equal((await iago.post('/users', { email: 'miranda@example.com', full_name: 'Miranda', password: 'a long enough password' })).status, 200);
    const miranda = clientFor(server, 'miranda@example.com');
    t.match((await miranda.post('/register', { fetch_event_types: ['user_settings'] })).body.user_settings, { left_side_userlist: true, emojiset: 'text', email_address_visibility: 3 });
  });

  t.test('the Welcome Bot\'s test message', async (t) => {
    const { iago, hamlet } = await world(t);
    t.same(error(await hamlet.post('/realm/test_welcome_bot_custom_message', { welcome_message_custom_text: 'Hi' })), bad('Must be an organization administrator'));
    t.same(error(await iago.post('/realm/test_welcome_bot_custom_message', { welcome_message_custom_text: 'x'.repeat(8001) })), bad('welcome_message_custom_text is too long (limit: 8000 characters)'));
    const answer = await iago.post('/realm/test_welcome_bot_custom_message', { welcome_message_custom_text: 'Welcome to **Elsinore**!' });
    t.equal(answer.status, 200);
    const message = (await iago.get(`/messages/${answer.body.message_id}`)).body.message;
    t.match(message, { sender_email: 'welcome-bot@example.com', content: '<p>Welcome to <strong>Elsinore</strong>!</p>', type: 'private' });
    t.same(message.display_recipient.map((r: { email: string }) => r.email).sort(), ['iago@example.com', 'welcome-bot@example.com']);
  });

  t.test('after a restart', async (t) => {
    const w = await world(t);
    const admins = await systemGroup(w.iago, 'role:administrators');
    await w.iago.patch('/realm', { name: 'Elsinore', giphy_rating: 4, can_add_custom_emoji_group: { new: admins } });
    await w.iago.patch('/realm/user_settings_defaults', { enter_sends: true });
    const restarted = await w.server.restart();
    t.teardown(() => restarted.destroy());
    const hamlet = clientFor(restarted, 'hamlet@example.com');
    t.match(await realmState(hamlet), { realm_name: 'Elsinore', realm_giphy_rating: 4, realm_can_add_custom_emoji_group: admins });
    t.equal((await hamlet.post('/register', { fetch_event_types: ['realm_user_settings_defaults'] })).body.realm_user_settings_defaults.enter_sends, true);
  });
});
