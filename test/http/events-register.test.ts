/**
 * Black-box tests of POST /register: parameters and initial state (unread counts, topics, settings), and only the fields of feature level 416. Every subtest has its own demo organization.
 */
import { test, type Test } from 'tap';
import type { ApiResponse } from '../helpers/client.js';
import { clientFor, startTestServer } from '../helpers/server.js';
import { world, type World } from '../helpers/world.js';
import { IAGO, HAMLET, OTHELLO, CORDELIA, VERONA, DENMARK, SCOTLAND, register, take, longPoll, settledWithin, waitFor, serverQueue, sorted, ofType, badQueue, send, MESSAGE_KEYS } from '../helpers/events.js';


/**
 * Unread state for Othello, built by each POST /register subtest on its own organization: a DM, a
 * group DM, a mention in Denmark, a muted topic in Verona, a star, and channels with two-digit ids.
 */
async function unreadState(t: Test, w: World) {
  const { org, hamlet, othello } = w;
  const dm = await send(hamlet, [OTHELLO], 'a direct message');
  const huddle = await send(hamlet, [OTHELLO, CORDELIA], 'a group message');
  const mention = await send(hamlet, 'Denmark', 'hello @**Othello, the Moor of Venice**', 'unread');
  const muted = await send(hamlet, 'Verona', 'not counted', 'muted topic');
  t.equal((await othello.patch('/users/me/subscriptions/muted_topics', { stream_id: VERONA, topic: 'muted topic', op: 'add' })).status, 200);
  t.equal((await othello.post('/messages/flags', { messages: [dm], op: 'add', flag: 'starred' })).status, 200);
  // Channel ids with two digits, to check that unread channels are ordered by id, not as text.
  const created = await othello.post('/users/me/subscriptions', { subscriptions: ['7', '8', '9', '10'].map((n) => ({ name: `Elsinore ${n}` })) });
  t.equal(created.status, 200);
  const elsinore = org.channels.byName('Elsinore 10')!.id;
  t.ok(elsinore >= 10);
  const latest = await send(hamlet, 'Elsinore 10', 'in a two-digit channel', 'Zed');
  return { dm, huddle, mention, muted, elsinore, latest };
}


test('POST /register', async (t) => {
  t.test('always present, whatever is fetched', async (t) => {
    const w = await world(t);
    const { othello } = w;
    await unreadState(t, w);
    const response = await othello.post('/register', { fetch_event_types: [] });
    t.equal(response.status, 200);
    const body = response.body;
    t.ok(typeof body.queue_id === 'string' && body.queue_id.length >= 16, 'queue_id is an opaque string (Zulip: a UUID)');
    t.equal(body.last_event_id, -1, 'a fresh queue reports -1');
    t.type(body.zulip_version, 'string');
    t.equal(body.zulip_feature_level, 416);
    t.type(body.zulip_merge_base, 'string');
    t.equal(body.event_queue_longpoll_timeout_seconds, 90);
    t.same(sorted(Object.keys(body)), sorted([
      'result', 'msg', 'queue_id', 'last_event_id', 'zulip_version', 'zulip_feature_level', 'zulip_merge_base',
      'event_queue_longpoll_timeout_seconds',
    ]), 'nothing else when nothing is fetched');
    const second = await othello.post('/register', { fetch_event_types: [] });
    t.not(second.body.queue_id, body.queue_id, 'every registration is a new queue');
  });

  t.test('the state of every fetched type', async (t) => {
    const w = await world(t);
    const { org, othello } = w;
    const { dm, huddle, mention, muted, elsinore, latest } = await unreadState(t, w);
    const body = (await othello.post('/register', {})).body;
    // realm
    t.equal(body.realm_name, org.realm.name);
    t.equal(body.max_message_length, 10000);
    t.equal(body.max_topic_length, 60);
    t.equal(body.max_stream_name_length, 60);
    t.equal(body.realm_empty_topic_display_name, 'general chat');
    t.equal(body.event_queue_longpoll_timeout_seconds, 90);
    t.type(body.realm_allow_message_editing, 'boolean');
    t.type(body.realm_allow_edit_history, 'boolean');
    t.ok('realm_message_content_edit_limit_seconds' in body);
    t.ok('realm_message_retention_days' in body);
    t.ok(['all', 'moves', 'none'].includes(body.realm_message_edit_history_visibility_policy));
    for (const setting of ['realm_can_move_messages_between_topics_group', 'realm_can_move_messages_between_channels_group', 'realm_can_delete_own_message_group', 'realm_can_delete_any_message_group', 'realm_can_resolve_topics_group']) {
      t.ok(typeof body[setting] === 'number' || (typeof body[setting] === 'object' && body[setting] !== null && 'direct_members' in body[setting]), `${setting} is a group-setting value`);
    }
    t.type(body.server_generation, 'number');
    t.notOk('realm_gif_rating_policy' in body || 'realm_uuid' in body, 'no keys from after feature level 416');
    // realm_user
    t.same(body.realm_users.map((u: any) => u.user_id).sort((a: number, b: number) => a - b), [1, 2, 3, 4, 5, 6, 7, 8], 'eight people');
    t.notOk(body.realm_users.some((u: any) => 'is_active' in u), 'is_active is dropped');
    t.same(body.realm_non_active_users, []);
    t.same(body.cross_realm_bots.map((u: any) => [u.email, u.is_system_bot, u.is_bot]), [['notification-bot@example.com', true, true]]);
    t.same([body.user_id, body.email, body.full_name, body.is_admin, body.is_owner, body.is_guest, body.is_moderator], [OTHELLO, 'othello@example.com', 'Othello, the Moor of Venice', false, false, false, false]);
    t.type(body.avatar_url, 'string');
    t.type(body.can_create_streams, 'boolean');
    // subscription
    t.same(sorted(body.subscriptions.map((s: any) => s.name)), sorted(['Denmark', 'Scotland', 'Verona', 'general', 'Elsinore 7', 'Elsinore 8', 'Elsinore 9', 'Elsinore 10']), 'subscriptions');
    t.same(body.unsubscribed, []);
    t.same(body.never_subscribed.map((s: any) => s.stream_id), [], 'Othello sees no public channel he never joined');
    t.notOk(body.subscriptions.some((s: any) => 'subscribers' in s), 'no subscribers unless asked');
    const denmark = body.subscriptions.find((s: any) => s.stream_id === DENMARK);
    t.match(denmark.color, /^#[0-9a-f]{6}$/i);
    t.equal(denmark.in_home_view, !denmark.is_muted);
    t.type(denmark.desktop_notifications, 'boolean', 'notification settings are concrete without notification_settings_null');
    // message, update_message_flags
    t.equal(body.max_message_id, latest);
    t.same(body.unread_msgs, {
      pms: [{ other_user_id: HAMLET, sender_id: HAMLET, unread_message_ids: [dm] }],
      streams: [
        { stream_id: VERONA, topic: 'muted topic', unread_message_ids: [muted] },
        { stream_id: DENMARK, topic: 'unread', unread_message_ids: [mention] },
        { stream_id: elsinore, topic: 'Zed', unread_message_ids: [latest] },
      ],
      huddles: [{ user_ids_string: '4,5,6', unread_message_ids: [huddle] }],
      mentions: [mention],
      count: 4,
      old_unreads_missing: false,
    }, 'unread_msgs: muted topics listed but not counted');
    t.same(body.starred_messages, [dm]);
    // muted_topics, user_topic
    t.equal(body.muted_topics.length, 1);
    t.same(body.muted_topics[0].slice(0, 2), ['Verona', 'muted topic']);
    t.type(body.muted_topics[0][2], 'number');
    const topics = body.user_topics.map((u: any) => [u.stream_id, u.topic_name, u.visibility_policy]).sort((a: any, b: any) => a[0] - b[0]);
    t.same(topics, [[VERONA, 'muted topic', 1], [DENMARK, 'unread', 3]], 'muted, and followed where mentioned');
    // the rest
    t.ok(body.realm_user_groups.some((g: any) => g.name === 'role:everyone' && g.is_system_group), 'realm_user_groups');
    for (const key of ['id', 'name', 'description', 'members', 'direct_subgroup_ids', 'is_system_group', 'can_mention_group', 'deactivated']) {
      t.ok(key in body.realm_user_groups[0], `groups have ${key}`);
    }
    t.same(body.custom_profile_fields, []);
    t.same(body.custom_profile_field_types.SHORT_TEXT, { id: 1, name: 'Text (short)' });
    t.same(body.presences, {});
    t.equal(body.presence_last_update_id, -1);
    t.type(body.server_timestamp, 'number');
    t.type(body.user_settings.twenty_four_hour_time, 'boolean');
    t.type(body.user_settings.send_private_typing_notifications, 'boolean');
    t.ok(Array.isArray(body.user_settings.available_notification_sounds));
    t.same(body.realm_emoji, {});
    t.same(body.drafts, []);
    t.same(body.scheduled_messages, []);
    t.same(body.navigation_views, []);
    t.same(body.user_status, {});
    t.type(body.twenty_four_hour_time, 'boolean', 'legacy settings without user_settings_object');
    t.type(body.pm_content_in_desktop_notifications, 'boolean');
  });

  t.test('fetch_event_types chooses the state and defaults to event_types', async (t) => {
    const w = await world(t);
    const { othello } = w;
    const { latest } = await unreadState(t, w);
    const onlyMessage = (await othello.post('/register', { event_types: ['message'] })).body;
    t.equal(onlyMessage.max_message_id, latest, 'message state');
    for (const key of ['realm_name', 'realm_users', 'subscriptions', 'unread_msgs', 'presences', 'user_settings']) t.notOk(key in onlyMessage, `no ${key}`);
    const both = (await othello.post('/register', { event_types: ['message'], fetch_event_types: ['realm_user', 'update_message_flags', 'message'] })).body;
    t.ok('realm_users' in both && 'unread_msgs' in both && 'max_message_id' in both, 'fetch_event_types wins');
    t.notOk('realm_name' in both);
    const flagsOnly = (await othello.post('/register', { fetch_event_types: ['update_message_flags'] })).body;
    t.notOk('unread_msgs' in flagsOnly, 'unread_msgs needs message and update_message_flags');
    const unknown = await othello.post('/register', { event_types: ['no_such_type'], fetch_event_types: ['no_such_type', 'realm_emoji'] });
    t.equal(unknown.status, 200, 'unknown types are ignored');
    t.same(unknown.body.realm_emoji, {});
    const userTopic = (await othello.post('/register', { event_types: ['user_topic'], fetch_event_types: ['muted_topics', 'user_topic'] })).body;
    t.notOk('muted_topics' in userTopic, 'no muted_topics for a queue that receives user_topic');
    t.ok(Array.isArray(userTopic.user_topics));
    const settingsObject = (await othello.post('/register', { fetch_event_types: ['update_display_settings', 'user_settings'], client_capabilities: { user_settings_object: true } })).body;
    t.notOk('twenty_four_hour_time' in settingsObject, 'no legacy settings with user_settings_object');
    t.ok('user_settings' in settingsObject);
    const badTypes = await othello.post('/register', { event_types: '"message"' });
    t.equal(badTypes.status, 400);
  });

  t.test('include_subscribers, client_gravatar, client_capabilities', async (t) => {
    const w = await world(t);
    const { org, othello } = w;
    await unreadState(t, w);
    const withSubscribers = (await othello.post('/register', { fetch_event_types: ['subscription'], include_subscribers: true })).body;
    const scotland = withSubscribers.subscriptions.find((s: any) => s.stream_id === SCOTLAND);
    t.same(scotland.subscribers, [OTHELLO, CORDELIA], 'subscribers with include_subscribers');
    const partial = await othello.post('/register', { fetch_event_types: ['subscription'], include_subscribers: 'partial' });
    t.equal(partial.status, 200, "include_subscribers 'partial' is accepted");

    const publicEmails = new Set([...org.users.all()].filter((u) => u.emailAddressVisibility === 1 && u.avatarSource === 'G').map((u) => u.id));
    const gravatar = (await othello.post('/register', { fetch_event_types: ['realm_user'] })).body;
    for (const user of gravatar.realm_users) {
      if (publicEmails.has(user.user_id)) t.equal(user.avatar_url, null, `client_gravatar (default true): null for ${user.user_id}`);
      else t.type(user.avatar_url, 'string');
    }
    const noGravatar = (await othello.post('/register', { fetch_event_types: ['realm_user'], client_gravatar: false })).body;
    t.ok(noGravatar.realm_users.every((u: any) => typeof u.avatar_url === 'string'), 'client_gravatar false: every URL');

    const nullSettings = (await othello.post('/register', { fetch_event_types: ['subscription'], client_capabilities: { notification_settings_null: true } })).body;
    t.equal(nullSettings.subscriptions[0].desktop_notifications, null, 'notification_settings_null: null means inherit');
    const emptyTopic = (await othello.post('/register', { fetch_event_types: ['message', 'update_message_flags'], client_capabilities: { empty_topic_name: true } })).body;
    t.ok(emptyTopic.unread_msgs, 'empty_topic_name accepted');
  });

  t.test('narrow and all_public_streams are checked', async (t) => {
    const w = await world(t);
    const { iago, othello, polonius } = w;
    const { dm } = await unreadState(t, w);
    const dmNarrow = await othello.post('/register', { narrow: [['dm', 'hamlet@example.com']] });
    t.same([dmNarrow.status, dmNarrow.body.msg], [400, 'Operator dm not supported.']);
    const followed = await othello.post('/register', { narrow: [['is', 'followed']] });
    t.same([followed.status, followed.body.msg], [400, 'Operand followed not supported.']);
    const ok = await othello.post('/register', { narrow: [['stream', 'Denmark'], ['topic', 'x'], ['sender', 'hamlet@example.com'], ['is', 'unread']] });
    t.equal(ok.status, 200);
    const guest = await polonius.post('/register', { all_public_streams: true });
    t.same([guest.status, guest.body.msg], [400, 'User not authorized for this query']);
    t.equal((await iago.post('/register', { all_public_streams: true, queue_lifespan_secs: 3600 })).status, 200);
  });

  t.test('the empty topic in user_topics and muted_topics', async (t) => {
    const w = await world(t);
    const { cordelia } = w;
    await unreadState(t, w);
    t.equal((await cordelia.patch('/users/me/subscriptions/muted_topics', { stream_id: DENMARK, topic: '', op: 'add' })).status, 200);
    const legacy = (await cordelia.post('/register', { fetch_event_types: ['user_topic', 'muted_topics'] })).body;
    t.same(legacy.user_topics.map((u: any) => u.topic_name), ['general chat'], 'its display name without empty_topic_name');
    t.same(legacy.muted_topics.map((m: any) => m[1]), ['general chat']);
    const modern = (await cordelia.post('/register', { fetch_event_types: ['user_topic'], client_capabilities: { empty_topic_name: true } })).body;
    t.same(modern.user_topics.map((u: any) => u.topic_name), ['']);
  });

  t.test('zulip-terminal registers and finds every key it reads', async (t) => {
    const w = await world(t);
    const { othello } = w;
    await unreadState(t, w);
    // As research-events.md §7.3 describes zulip-terminal's registration.
    const response = await othello.post('/register', {
      event_types: ['message', 'update_message', 'reaction', 'subscription', 'typing', 'update_message_flags', 'update_global_notifications', 'update_display_settings', 'user_settings', 'realm_emoji'],
      fetch_event_types: ['realm', 'presence', 'subscription', 'message', 'starred_messages', 'update_message_flags', 'muted_topics', 'realm_user', 'realm_user_groups', 'update_global_notifications', 'update_display_settings', 'user_settings', 'realm_emoji', 'zulip_version'],
      client_gravatar: true,
      apply_markdown: true,
      include_subscribers: true,
    });
    t.equal(response.status, 200);
    const body = response.body;
    for (const key of [
      'queue_id', 'last_event_id', 'max_message_id', 'zulip_version', 'user_id', 'email', 'full_name', 'realm_name', 'realm_users',
      'cross_realm_bots', 'subscriptions', 'presences', 'muted_topics', 'realm_user_groups', 'realm_emoji', 'starred_messages',
      'unread_msgs', 'twenty_four_hour_time', 'pm_content_in_desktop_notifications', 'realm_message_retention_days',
      'realm_allow_edit_history', 'realm_allow_message_editing',
    ]) {
      t.ok(key in body, `has ${key}`);
    }
    for (const sub of body.subscriptions) {
      for (const key of ['name', 'stream_id', 'color', 'pin_to_top', 'in_home_view', 'desktop_notifications', 'description', 'invite_only', 'subscribers', 'message_retention_days']) {
        t.ok(key in sub, `subscription ${sub.name} has ${key}`);
      }
    }
    t.ok(body.unread_msgs.pms.every((p: any) => 'sender_id' in p), 'pms have the legacy sender_id');
    t.ok(Object.values(body.realm_user_groups).every((g: any) => 'id' in g && 'name' in g));

    // The current zulip-terminal (main, 2026) fetches custom_profile_fields and reads settings from user_settings.
    const current = (await othello.post('/register', {
      event_types: ['message', 'update_message', 'reaction', 'submessage', 'subscription', 'typing', 'update_message_flags', 'user_settings', 'realm_emoji', 'realm_user'],
      fetch_event_types: ['realm', 'presence', 'subscription', 'message', 'starred_messages', 'update_message_flags', 'muted_topics', 'realm_user', 'realm_user_groups', 'user_settings', 'realm_emoji', 'custom_profile_fields', 'zulip_version'],
      client_gravatar: true,
      apply_markdown: true,
      include_subscribers: true,
    })).body;
    for (const key of ['custom_profile_fields', 'muted_topics', 'unread_msgs', 'realm_users', 'cross_realm_bots', 'max_message_id']) t.ok(key in current, `current ZT: ${key}`);
    t.type(current.user_settings.twenty_four_hour_time, 'boolean');
    t.type(current.user_settings.pm_content_in_desktop_notifications, 'boolean');
  });
});

test('POST /register sends no field that feature level 416 does not have', async (t) => {
  const { server } = await world(t);
  const api = clientFor(server, 'iago@example.com');
  for (const capabilities of [{ user_settings_object: true }, {}]) {
    const response = await api.post('/register', { client_capabilities: capabilities });
    t.equal(response.status, 200);
    const body = response.body;
    t.equal(body.zulip_feature_level, 416);
    t.notOk('realm_web_public_access_enabled' in body, 'a GET /server_settings field, not a /register one');
    t.notOk('dense_mode' in body, 'removed at feature level 364');
    t.notOk('dense_mode' in body.user_settings, 'removed from user_settings at feature level 364');
    t.equal(body.user_settings.web_left_sidebar_unreads_count_summary, true, 'new at feature level 398');
    t.equal(body.user_settings.web_left_sidebar_show_channel_folders, true, 'new at feature level 411');
    await api.delete('/events', { queue_id: body.queue_id });
  }
});
