/**
 * Black-box tests of the real-time events API: POST /register (parameters and initial state), GET
 * and DELETE /events (long-poll, heartbeats, pruning, dead queues, expiry), per-queue filtering, the
 * events of messages, reactions, flags and subscriptions, and queues that survive a restart.
 * Every subtest has its own demo organization.
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

test('GET and DELETE /events', async (t) => {
  t.test('a parked poll waits, and a message wakes it', async (t) => {
    const { server, hamlet, othello } = await world(t);
    const queue = await register(othello, { event_types: ['message'] });
    const poll = longPoll(queue);
    t.equal(await settledWithin(poll, 1500), 'pending', 'no events: the poll stays parked');
    t.equal(serverQueue(server, queue, OTHELLO)?.state, 'polling');
    const id = await send(hamlet, 'Denmark', 'wake up');
    const sent = Date.now();
    const answer = await settledWithin(poll, 1000);
    t.not(answer, 'pending', 'answered within a second of the send');
    const response = answer as ApiResponse;
    t.ok(Date.now() - sent < 1000);
    t.equal(response.status, 200);
    t.equal(response.body.queue_id, queue.id, 'a completed long-poll carries queue_id');
    t.same(response.body.events.map((e: any) => [e.type, e.message.id]), [['message', id]]);
    t.ok(response.body.events[0].id > queue.last, 'ids grow');
  });

  t.test('dont_block answers at once', async (t) => {
    const { hamlet, othello } = await world(t);
    const queue = await register(othello);
    const empty = await othello.get('/events', { queue_id: queue.id, last_event_id: -1, dont_block: true });
    t.same(empty.body, { result: 'success', msg: '', events: [] }, 'an immediate answer has no queue_id');
    const id = await send(hamlet, 'Denmark', 'waiting');
    const full = await othello.get('/events', { queue_id: queue.id, last_event_id: -1 });
    t.same(full.body.events.map((e: any) => e.message?.id), [id], 'a poll with events waiting answers at once');
    t.notOk('queue_id' in full.body);
    const missing = await othello.get('/events', { last_event_id: -1 });
    t.same([missing.status, missing.body.msg], [400, "Missing 'queue_id' argument"]);
    const noLast = await othello.get('/events', { queue_id: queue.id });
    t.same([noLast.status, noLast.body.msg], [400, "Missing 'last_event_id' argument"]);
  });

  t.test('acknowledged events are pruned, with Zulip errors for ids before or outside the queue', async (t) => {
    const { iago, hamlet, othello } = await world(t);
    const queue = await register(othello, { event_types: ['message'] });
    const first = await send(hamlet, 'Denmark', 'one');
    const between = await send(iago, 'Verona', 'in between', 'x');
    const second = await send(hamlet, 'Denmark', 'two');
    const events = (await othello.get('/events', { queue_id: queue.id, last_event_id: -1, dont_block: true })).body.events;
    t.same(events.map((e: any) => e.message.id), [first, between, second]);
    const [a, b] = [events[0].id, events.at(-1).id];
    t.ok(b > a, 'ids grow');
    const again = await othello.get('/events', { queue_id: queue.id, last_event_id: -1, dont_block: true });
    t.same(again.body.events.map((e: any) => e.id), events.map((e: any) => e.id), 're-sending the same last_event_id is idempotent');
    const acked = await othello.get('/events', { queue_id: queue.id, last_event_id: b, dont_block: true });
    t.same(acked.body.events, [], 'events up to last_event_id are dropped');
    const pruned = await othello.get('/events', { queue_id: queue.id, last_event_id: a, dont_block: true });
    t.equal(pruned.status, 400);
    t.same(pruned.body, { result: 'error', msg: `An event newer than ${a} has already been pruned!`, code: 'BAD_REQUEST' });
    const never = await othello.get('/events', { queue_id: queue.id, last_event_id: b + 1000, dont_block: true });
    t.equal(never.status, 400);
    t.same(never.body, { result: 'error', msg: `Event ${b + 1000} was not in this queue`, code: 'BAD_REQUEST' });
    const stillFine = await othello.get('/events', { queue_id: queue.id, last_event_id: b, dont_block: true });
    t.equal(stillFine.status, 200, 'the queue survives those errors');
  });

  t.test('BAD_EVENT_QUEUE_ID: unknown, another user’s, deleted', async (t) => {
    const { hamlet, othello } = await world(t);
    const unknown = '00000000-0000-4000-8000-000000000000';
    badQueue(t, await othello.get('/events', { queue_id: unknown, last_event_id: -1 }), unknown, 'unknown queue');
    badQueue(t, await othello.delete('/events', { queue_id: unknown }), unknown, 'DELETE of an unknown queue');
    const hamlets = await register(hamlet);
    badQueue(t, await othello.get('/events', { queue_id: hamlets.id, last_event_id: -1, dont_block: true }), hamlets.id, "another user's queue");
    badQueue(t, await othello.delete('/events', { queue_id: hamlets.id }), hamlets.id, "DELETE of another user's queue");
    t.equal((await hamlet.get('/events', { queue_id: hamlets.id, last_event_id: -1, dont_block: true })).status, 200, 'the owner still has it');
    const deleted = await hamlet.delete('/events', { queue_id: hamlets.id });
    t.same([deleted.status, deleted.body], [200, { result: 'success', msg: '' }]);
    badQueue(t, await hamlet.get('/events', { queue_id: hamlets.id, last_event_id: -1 }), hamlets.id, 'deleted queue');
    badQueue(t, await hamlet.delete('/events', { queue_id: hamlets.id }), hamlets.id, 'deleted twice');
    const noId = await hamlet.delete('/events', {});
    t.same([noId.status, noId.body.msg], [400, "Missing 'queue_id' argument"]);
  });

  t.test('DELETE /events finishes a parked poll, and takes queue_id in the query string (zulip-js)', async (t) => {
    const { server, hamlet } = await world(t);
    const queue = await register(hamlet);
    const poll = longPoll(queue);
    await waitFor(() => serverQueue(server, queue, HAMLET)?.state === 'polling', 'the poll to park');
    const response = await fetch(`${server.url}/api/v1/events?queue_id=${queue.id}`, { method: 'DELETE', headers: { authorization: hamlet.authorization! } });
    t.equal(response.status, 200);
    const finished = await settledWithin(poll, 2000);
    t.not(finished, 'pending', 'the parked poll was answered');
    t.same((finished as ApiResponse).body, { result: 'success', msg: '', events: [], queue_id: queue.id });
    badQueue(t, await hamlet.get('/events', { queue_id: queue.id, last_event_id: -1 }), queue.id, 'gone');
  });

  t.test('a second poll finishes the first one with no events', async (t) => {
    const { server, hamlet, othello } = await world(t);
    const queue = await register(othello, { event_types: ['message'] });
    const first = longPoll(queue);
    await waitFor(() => serverQueue(server, queue, OTHELLO)?.state === 'polling', 'the first poll to park');
    const second = longPoll(queue);
    const answer = await settledWithin(first, 2000);
    t.not(answer, 'pending', 'the first poll is finished');
    t.same((answer as ApiResponse).body, { result: 'success', msg: '', events: [], queue_id: queue.id });
    t.equal(await settledWithin(second, 300), 'pending', 'the second one takes over the waiting');
    const id = await send(hamlet, 'Denmark', 'for the second poll');
    const response = await second;
    t.same(response.body.events.map((e: any) => e.message.id), [id]);
  });

  t.test('a client that leaves while parked leaks nothing', async (t) => {
    const { server, hamlet, othello } = await world(t);
    const queue = await register(othello, { event_types: ['message'] });
    const controller = new AbortController();
    const aborted = fetch(`${server.url}/api/v1/events?queue_id=${queue.id}&last_event_id=-1`, {
      headers: { authorization: othello.authorization! },
      signal: controller.signal,
    }).catch((error: unknown) => error);
    await waitFor(() => serverQueue(server, queue, OTHELLO)?.state === 'polling', 'the poll to park');
    controller.abort();
    t.type(await aborted, Error, 'the client gave up');
    await waitFor(() => serverQueue(server, queue, OTHELLO)?.state === 'idle', 'the server to notice the disconnect');
    t.equal(serverQueue(server, queue, OTHELLO)?.parked, undefined, 'the parked poll is released');
    const id = await send(hamlet, 'Denmark', 'after the disconnect');
    t.equal(serverQueue(server, queue, OTHELLO)?.pending.length, 1, 'the event waits in the queue');
    const response = await longPoll(queue);
    t.same(response.body.events.map((e: any) => e.message.id), [id], 'the next poll gets it');
  });
});

test('heartbeats and expiry (short intervals)', async (t) => {
  t.test('a quiet poll gets a heartbeat, whatever its event_types', async (t) => {
    const { hamlet, othello } = await world(t, { env: { PARLEY_HEARTBEAT_SECONDS: '1', PARLEY_QUEUE_IDLE_SECONDS: '2', PARLEY_SWEEP_SECONDS: '1' } });
    const queue = await register(othello, { event_types: ['message'] });
    const started = Date.now();
    const response = await longPoll(queue);
    const waited = Date.now() - started;
    t.ok(waited >= 800 && waited < 5000, `answered after the heartbeat interval (${waited} ms)`);
    t.same(response.body, { result: 'success', msg: '', events: [{ type: 'heartbeat', id: -1 }], queue_id: queue.id }, 'a fresh queue’s heartbeat has its last id');
    const id = await send(hamlet, 'Denmark', 'between heartbeats');
    const events = (await longPoll(queue, -1)).body.events;
    t.same(events.map((e: any) => e.type), ['message']);
    const last = events[0].id;
    const beat = await longPoll(queue, last);
    t.same(beat.body.events, [{ type: 'heartbeat', id: last }], 'a heartbeat carries the newest id the queue was given');
    const next = await othello.get('/events', { queue_id: queue.id, last_event_id: last, dont_block: true });
    t.equal(next.status, 200, 'polling on from the heartbeat id works');
    t.ok(id > 0);
  });

  t.test('a queue nobody polls expires; queue_lifespan_secs extends it', async (t) => {
    const { server, othello } = await world(t, { env: { PARLEY_HEARTBEAT_SECONDS: '1', PARLEY_QUEUE_IDLE_SECONDS: '2', PARLEY_SWEEP_SECONDS: '1' } });
    const short = await register(othello);
    const long = await register(othello, { queue_lifespan_secs: 3600 });
    await waitFor(() => serverQueue(server, short, OTHELLO) === undefined, 'the idle queue to expire', 15_000);
    badQueue(t, await othello.get('/events', { queue_id: short.id, last_event_id: -1, dont_block: true }), short.id, 'expired queue');
    badQueue(t, await othello.delete('/events', { queue_id: short.id }), short.id, 'DELETE of an expired queue');
    const alive = await othello.get('/events', { queue_id: long.id, last_event_id: -1, dont_block: true });
    t.equal(alive.status, 200, 'the queue with a longer lifespan outlived it');
  });

  t.test('a queue being polled does not expire', async (t) => {
    const { server, othello } = await world(t, { env: { PARLEY_HEARTBEAT_SECONDS: '1', PARLEY_QUEUE_IDLE_SECONDS: '2', PARLEY_SWEEP_SECONDS: '1' } });
    const queue = await register(othello, { event_types: ['message'] });
    // Heartbeats every second keep answering; keep polling for longer than the idle timeout.
    const until = Date.now() + 3500;
    while (Date.now() < until) {
      const response = await longPoll(queue);
      t.equal(response.status, 200);
      if (response.status !== 200) break;
    }
    t.ok(serverQueue(server, queue, OTHELLO), 'still there');
  });
});

test('filtering and local echo', async (t) => {
  t.test('event_types is exact', async (t) => {
    const { hamlet, othello } = await world(t);
    const reactions = await register(hamlet, { event_types: ['reaction'] });
    const messages = await register(hamlet, { event_types: ['message'] });
    const unknown = await register(hamlet, { event_types: ['no_such_type'] });
    const id = await send(othello, 'Denmark', 'react to me');
    t.equal((await hamlet.post(`/messages/${id}/reactions`, { emoji_name: 'tada' })).status, 200);
    t.equal((await othello.patch(`/messages/${id}`, { content: 'edited' })).status, 200);
    t.same((await take(reactions)).map((e) => e.type), ['reaction']);
    t.same((await take(messages)).map((e) => e.type), ['message'], '"message" does not include update_message or reaction');
    t.same(await take(unknown), [], 'unknown types match nothing');
  });

  t.test('narrow: message events only, matching terms, public channels even unsubscribed', async (t) => {
    const { hamlet, othello, cordelia } = await world(t);
    const denmark = await register(hamlet, { narrow: [['stream', 'denmark']] });
    const scotland = await register(hamlet, { narrow: [['channel', 'Scotland']] });
    const topic = await register(hamlet, { narrow: [['stream', 'Denmark'], ['topic', 'Lunch']] });
    const sender = await register(hamlet, { narrow: [['sender', 'OTHELLO@example.com']] });
    const dms = await register(hamlet, { narrow: [['is', 'dm']] });
    const inDenmark = await send(othello, 'Denmark', 'in Denmark', 'lunch');
    const inVerona = await send(cordelia, 'Verona', 'in Verona');
    const inScotland = await send(othello, 'Scotland', 'in Scotland');
    const dm = await send(othello, [HAMLET], 'private');
    t.equal((await othello.post('/messages/flags', { messages: [inVerona], op: 'add', flag: 'read' })).status, 200);
    const ids = (events: any[]) => ofType(events, 'message').map((e) => e.message.id);
    const denmarkEvents = await take(denmark);
    t.same(ids(denmarkEvents), [inDenmark], 'channel, case-insensitively');
    const scotlandEvents = ofType(await take(scotland), 'message');
    t.same(scotlandEvents.map((e) => e.message.id), [inScotland], 'a public channel the user is not subscribed to');
    t.same(scotlandEvents[0].flags, [], 'with no flags');
    t.same(ids(await take(topic)), [inDenmark], 'topic, case-insensitively');
    t.same(ids(await take(sender)), [inDenmark, inScotland, dm], 'sender by email, case-insensitively');
    t.same(ids(await take(dms)), [dm]);
  });

  t.test('a guest with a narrow sees only what the guest may read', async (t) => {
    const { server, hamlet } = await world(t);
    const polonius = clientFor(server, 'polonius@example.com');
    const denmark = await register(polonius, { narrow: [['stream', 'Denmark']] });
    const verona = await register(polonius, { narrow: [['stream', 'Verona']] });
    await send(hamlet, 'Denmark', 'members only', 'guests');
    const inVerona = await send(hamlet, 'Verona', 'for the guest too', 'guests');
    t.same(ofType(await take(denmark), 'message'), [], 'no messages of a public channel the guest is not in');
    t.same(ofType(await take(verona), 'message').map((e) => e.message.id), [inVerona]);
  });

  t.test('all_public_streams: public channel messages with no flags, other events as usual', async (t) => {
    const { hamlet, othello } = await world(t);
    const all = await register(hamlet, { all_public_streams: true, event_types: ['message'] });
    const plain = await register(hamlet, { event_types: ['message'] });
    const inScotland = await send(othello, 'Scotland', 'for everyone watching');
    const inDenmark = await send(othello, 'Denmark', '@**King Hamlet** look');
    const allEvents = await take(all);
    t.same(allEvents.map((e) => [e.message.id, e.flags]), [[inScotland, []], [inDenmark, ['mentioned']]], 'subscribed messages keep their flags');
    t.same((await take(plain)).map((e) => e.message.id), [inDenmark]);
  });

  t.test('local_message_id goes only to the queue that sent it', async (t) => {
    const { hamlet, othello } = await world(t);
    const first = await register(hamlet, { event_types: ['message'] });
    const second = await register(hamlet, { event_types: ['message'] });
    const watcher = await register(othello, { event_types: ['message'] });
    const id = await send(hamlet, 'Denmark', 'echo', 'events', { queue_id: first.id, local_id: '100.01' });
    const [mine] = await take(first);
    t.equal(mine.message.id, id);
    t.equal(mine.local_message_id, '100.01', 'the sending queue gets its local id back');
    const [other] = await take(second);
    t.notOk('local_message_id' in other, "the sender's other queue does not");
    const [theirs] = await take(watcher);
    t.notOk('local_message_id' in theirs, 'nor does anyone else');
    // With queue_id, local_id is required (refused without it); without either there is no echo.
    await send(hamlet, 'Denmark', 'no local id', 'events');
    t.notOk('local_message_id' in (await take(first))[0], 'only with local_id');
  });
});

test('every event type from its operation', async (t) => {
  t.test('message: per-user flags, Markdown or HTML', async (t) => {
    const { hamlet, othello, cordelia } = await world(t);
    const html = await register(othello, { apply_markdown: true, event_types: ['message'] });
    const raw = await register(othello, { event_types: ['message'] });
    const sender = await register(hamlet, { event_types: ['message'] });
    const bystander = await register(cordelia, { event_types: ['message'] });
    const id = await send(hamlet, 'Denmark', 'hi @**Othello, the Moor of Venice**', 'shapes');
    const id2 = await send(hamlet, 'Denmark', 'plain *text*', 'shapes', { read_by_sender: true });
    const [event] = await take(html);
    t.same(sorted(Object.keys(event)), ['flags', 'id', 'message', 'type']);
    t.same(sorted(Object.keys(event.message)), sorted(MESSAGE_KEYS), 'the message dict has exactly Zulip keys');
    t.match(event.message, {
      id, sender_id: HAMLET, sender_email: 'hamlet@example.com', sender_full_name: 'King Hamlet', type: 'stream',
      stream_id: DENMARK, display_recipient: 'Denmark', subject: 'shapes', content_type: 'text/html',
      topic_links: [], reactions: [], submessages: [], is_me_message: false,
    });
    t.match(event.message.content, /^<p>/);
    t.same(event.flags, ['mentioned'], 'mentioned flag for the mentioned user');
    const [rawEvent, rawSecond] = await take(raw);
    t.equal(rawEvent.message.content, 'hi @**Othello, the Moor of Venice**');
    t.equal(rawEvent.message.content_type, 'text/x-markdown', 'apply_markdown false: raw Markdown');
    t.equal(rawSecond.message.content, 'plain *text*');
    const senderEvents = await take(sender);
    t.same(senderEvents.map((e) => e.flags), [[], ['read']], "the sender's own flags (read with read_by_sender)");
    t.same((await take(bystander)).map((e) => [e.message.id, e.flags]), [[id, []], [id2, []]]);

    const emptyTopic = await register(othello, { event_types: ['message'], client_capabilities: { empty_topic_name: true } });
    const general = await send(hamlet, 'Denmark', 'no topic', '');
    t.equal((await take(raw))[0].message.subject, 'general chat', 'the empty topic by its display name without empty_topic_name');
    t.same((await take(emptyTopic)).map((e) => [e.message.id, e.message.subject]), [[general, '']], 'and as "" with it');
    await take(html);

    const dmQueue = await register(othello, { event_types: ['message'] });
    const dm = await send(hamlet, [OTHELLO], 'psst');
    const [dmEvent] = await take(dmQueue);
    t.match(dmEvent.message, { id: dm, type: 'private', subject: '' });
    t.notOk('stream_id' in dmEvent.message);
    t.same(dmEvent.message.display_recipient.map((r: any) => r.id).sort(), [HAMLET, OTHELLO], 'display_recipient lists both');
    t.same(sorted(Object.keys(dmEvent.message.display_recipient[0])), ['email', 'full_name', 'id', 'is_mirror_dummy']);
    t.same(dmEvent.flags, [], 'unread, unmentioned');
  });

  t.test('update_message: content edit and topic move', async (t) => {
    const { iago, hamlet, othello } = await world(t);
    const id = await send(hamlet, 'Denmark', 'first draft', 'to move');
    const later = await send(hamlet, 'Denmark', 'second message', 'to move');
    const queue = await register(othello, { event_types: ['update_message'] });
    const edited = await hamlet.patch(`/messages/${id}`, { content: 'final text' });
    t.equal(edited.status, 200);
    const [edit] = await take(queue);
    t.same(sorted(Object.keys(edit)), sorted([
      'type', 'user_id', 'edit_timestamp', 'message_id', 'message_ids', 'rendering_only', 'flags', 'stream_name', 'stream_id',
      'orig_content', 'orig_rendered_content', 'content', 'rendered_content', 'is_me_message', 'id',
    ]));
    t.match(edit, {
      type: 'update_message', user_id: HAMLET, message_id: id, message_ids: [id], rendering_only: false, stream_name: 'Denmark',
      stream_id: DENMARK, orig_content: 'first draft', orig_rendered_content: '<p>first draft</p>', content: 'final text',
      rendered_content: '<p>final text</p>', is_me_message: false, flags: [],
    });
    const moved = await iago.patch(`/messages/${id}`, { topic: 'moved', propagate_mode: 'change_all', send_notification_to_old_thread: false, send_notification_to_new_thread: false });
    t.equal(moved.status, 200);
    const [move] = await take(queue);
    t.match(move, { type: 'update_message', user_id: IAGO, message_id: id, message_ids: [id, later], propagate_mode: 'change_all', orig_subject: 'to move', subject: 'moved', topic_links: [], stream_id: DENMARK });
    t.notOk('content' in move, 'no content keys when the content did not change');
    t.notOk('new_stream_id' in move);
  });

  t.test('delete_message: singular without bulk_message_deletion, plural with it', async (t) => {
    const { iago, hamlet, othello } = await world(t);
    const single = await register(othello, { event_types: ['delete_message'] });
    const bulk = await register(othello, { event_types: ['delete_message'], client_capabilities: { bulk_message_deletion: true } });
    const id = await send(hamlet, 'Denmark', 'doomed', 'deletions');
    const dm = await send(hamlet, [OTHELLO], 'doomed too');
    t.equal((await iago.delete(`/messages/${id}`)).status, 200);
    t.equal((await hamlet.delete(`/messages/${dm}`)).status, 200);
    const singles = await take(single);
    t.same(singles.map(({ id: _, ...rest }) => rest), [
      { type: 'delete_message', message_id: id, message_type: 'stream', stream_id: DENMARK, topic: 'deletions' },
      { type: 'delete_message', message_id: dm, message_type: 'private' },
    ]);
    const bulks = await take(bulk);
    t.same(bulks.map(({ id: _, ...rest }) => rest), [
      { type: 'delete_message', message_ids: [id], message_type: 'stream', stream_id: DENMARK, topic: 'deletions' },
      { type: 'delete_message', message_ids: [dm], message_type: 'private' },
    ]);
  });

  t.test('reaction add and remove', async (t) => {
    const { hamlet, othello } = await world(t);
    const id = await send(othello, 'Denmark', 'react', 'reactions');
    const queue = await register(othello, { event_types: ['reaction'] });
    t.equal((await hamlet.post(`/messages/${id}/reactions`, { emoji_name: 'tada' })).status, 200);
    t.equal((await hamlet.delete(`/messages/${id}/reactions`, { emoji_name: 'tada' })).status, 200);
    const events = await take(queue);
    const expected = (op: string) => ({
      type: 'reaction', op, user_id: HAMLET, user: { user_id: HAMLET, email: 'hamlet@example.com', full_name: 'King Hamlet' },
      message_id: id, emoji_name: 'tada', emoji_code: '1f389', reaction_type: 'unicode_emoji',
    });
    t.same(events.map(({ id: _, ...rest }) => rest), [expected('add'), expected('remove')]);
  });

  t.test('update_message_flags add and remove (message_details when unreading)', async (t) => {
    const { hamlet, othello } = await world(t);
    const inChannel = await send(hamlet, 'Denmark', 'hey @**Othello, the Moor of Venice**', 'flags');
    const dm = await send(hamlet, [OTHELLO, CORDELIA], 'group');
    const queue = await register(othello, { event_types: ['update_message_flags'] });
    const other = await register(hamlet, { event_types: ['update_message_flags'] });
    await othello.post('/messages/flags', { messages: [inChannel], op: 'add', flag: 'starred' });
    await othello.post('/messages/flags', { messages: [inChannel, dm], op: 'add', flag: 'read' });
    await othello.post('/messages/flags', { messages: [inChannel, dm], op: 'remove', flag: 'read' });
    await othello.post('/messages/flags', { messages: [inChannel], op: 'add', flag: 'starred' });
    const events = (await take(queue)).map(({ id: _, ...rest }) => rest);
    t.same(events[0], { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'starred', messages: [inChannel], all: false });
    t.same(events[1], { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [inChannel, dm], all: false });
    t.same(events[2], {
      type: 'update_message_flags', op: 'remove', operation: 'remove', flag: 'read', messages: [inChannel, dm], all: false,
      message_details: {
        [inChannel]: { type: 'stream', stream_id: DENMARK, topic: 'flags', unmuted_stream_msg: true, mentioned: true },
        [dm]: { type: 'private', user_ids: [HAMLET, CORDELIA] },
      },
    });
    t.same(events[3], { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'starred', messages: [], all: false }, 'sent even when nothing changed');
    t.same(await take(other), [], 'only to the user');
  });

  t.test('subscription add, peer_add, remove, peer_remove; stream create', async (t) => {
    const { hamlet, othello } = await world(t);
    const mine = await register(hamlet, { event_types: ['subscription', 'stream'] });
    const peer = await register(othello, { event_types: ['subscription', 'stream'] });
    t.equal((await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Scotland' }] })).status, 200);
    const [add] = await take(mine);
    t.equal(add.type, 'subscription');
    t.equal(add.op, 'add');
    t.equal(add.subscriptions.length, 1);
    t.match(add.subscriptions[0], { stream_id: SCOTLAND, name: 'Scotland', in_home_view: true, is_muted: false });
    t.same(add.subscriptions[0].subscribers, [HAMLET, OTHELLO, CORDELIA].sort((a, b) => a - b), 'with subscribers');
    t.same((await take(peer)).map(({ id: _, ...rest }) => rest), [{ type: 'subscription', op: 'peer_add', stream_ids: [SCOTLAND], user_ids: [HAMLET] }]);

    t.equal((await hamlet.delete('/users/me/subscriptions', { subscriptions: ['Scotland'] })).status, 200);
    const removal = (await take(mine)).map(({ id: _, ...rest }) => rest);
    t.same(removal[0], { type: 'subscription', op: 'remove', subscriptions: [{ name: 'Scotland', stream_id: SCOTLAND }] });
    t.same(removal.slice(1), [], 'no peer_remove to the user who left (Zulip sends it to the other peers only)');
    t.same((await take(peer)).map(({ id: _, ...rest }) => rest), [{ type: 'subscription', op: 'peer_remove', stream_ids: [SCOTLAND], user_ids: [HAMLET] }]);

    t.equal((await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Elsinore', description: 'castle' }] })).status, 200);
    const created = await take(peer);
    const create = created.find((e) => e.type === 'stream');
    t.ok(create, 'others learn about a new public channel');
    t.equal(create.op, 'create');
    t.match(create.streams[0], { name: 'Elsinore', description: 'castle', invite_only: false, creator_id: HAMLET, is_archived: false });
    t.notOk('color' in create.streams[0], 'the channel, not a subscription');
    const forCreator = await take(mine);
    t.same(forCreator.map((e) => [e.type, e.op]), [['stream', 'create'], ['subscription', 'add']]);
  });
});

test('queues survive a restart', async (t) => {
  let server = await startTestServer();
  t.teardown(() => server.destroy());
  const hamlet = () => clientFor(server, 'hamlet@example.com');
  const othello = () => clientFor(server, 'othello@example.com');
  const queue = await register(othello(), { event_types: ['message', 'restart'] });
  const everything = await register(othello());
  const before = [await send(hamlet(), 'Denmark', 'one'), await send(hamlet(), 'Denmark', 'two')];
  const seen = await take(queue);
  t.same(seen.map((e) => e.message.id), before);
  const acknowledged = queue.last;
  t.same(await take(queue), [], 'acknowledged');
  const firstId = seen[0].id;
  const after = [await send(hamlet(), 'Denmark', 'three'), await send(hamlet(), 'Denmark', 'four')];
  const quiet = await register(othello(), { event_types: ['typing'] });
  const parked = longPoll(quiet);
  await waitFor(() => serverQueue(server, quiet, OTHELLO)?.state === 'polling', 'the poll to park');
  const generation = server.services.startedAt;

  server = await server.restart();
  const answer = await parked;
  t.same([answer.status, answer.body.events.map((e: any) => e.type)], [200, ['heartbeat']], 'a poll parked at shutdown is answered');
  queue.api = othello();
  everything.api = othello();

  const response = await othello().get('/events', { queue_id: queue.id, last_event_id: acknowledged, dont_block: true });
  t.equal(response.status, 200, 'the queue id still works');
  const events = response.body.events;
  queue.last = events.at(-1).id;
  t.same(events.filter((e: any) => e.type === 'message').map((e: any) => e.message.id), after, 'every event not acknowledged, once');
  const restart = events.at(-1);
  t.same(Object.keys(restart).sort(), ['id', 'server_generation', 'type', 'zulip_feature_level', 'zulip_merge_base', 'zulip_version']);
  t.match(restart, { type: 'restart', zulip_feature_level: 416 });
  t.ok(Number.isInteger(restart.server_generation) && restart.server_generation >= generation);
  t.ok(events.every((e: any, i: number) => i === 0 || e.id > events[i - 1].id), 'ids increase');
  const pruned = await othello().get('/events', { queue_id: queue.id, last_event_id: firstId, dont_block: true });
  t.same([pruned.status, pruned.body.msg], [400, `An event newer than ${firstId} has already been pruned!`], 'the acknowledgement was kept');

  const all = (await othello().get('/events', { queue_id: everything.id, last_event_id: -1, dont_block: true })).body.events;
  t.same(ofType(all, 'message').map((e: any) => e.message.id), [...before, ...after], 'a queue that acknowledged nothing gets everything');
  t.equal(all.at(-1).type, 'restart');
  const fresh = await register(othello());
  t.same(await take(fresh), [], 'queues created after the restart get no restart event');
  const later = await send(hamlet(), 'Denmark', 'after restart');
  t.same((await take(queue)).filter((e) => e.type === 'message').map((e) => e.message.id), [later], 'the restored queue keeps receiving');
});
