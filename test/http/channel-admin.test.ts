/**
 * Black-box tests of channel administration: PATCH /streams/{id} (name, description, privacy,
 * group settings, retention, topics policy, folder), archiving and unarchiving with the events
 * each kind of queue gets, deleting a topic, members, subscription status, the email address,
 * default channels and what new users get, all through HTTP, and all of it after a restart.
 */
import { test } from 'tap';
import type { Api } from '../helpers/client.js';
import { clientFor } from '../helpers/server.js';
import { ofType, register, take } from '../helpers/events.js';
import { error, send, VERONA, DENMARK, SCOTLAND, CORE_TEAM, MODERATION } from '../helpers/messages.js';
import { HAMLET, OTHELLO, GENERAL } from '../helpers/demo-ids.js';
import { world } from '../helpers/world.js';

const bad = (msg: string) => [400, 'BAD_REQUEST', msg];
const CANNOT_ADMINISTER = bad('You do not have permission to administer this channel.');
const INVALID_CHANNEL = bad('Invalid channel ID');

const streamOf = async (api: Api, id: number) => (await api.get(`/streams/${id}`)).body.stream;
/** The newest message of a channel topic, as `api` reads it. */
async function newestIn(api: Api, channelId: number, topic: string) {
  const narrow = [{ operator: 'channel', operand: channelId }, { operator: 'topic', operand: topic }];
  const messages = (await api.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow, apply_markdown: false })).body.messages;
  return messages[messages.length - 1];
}
async function systemGroup(api: Api, name: string): Promise<number> {
  const groups = (await api.get('/user_groups')).body.user_groups as { id: number; name: string }[];
  return groups.find((group) => group.name === name)!.id;
}

test('channel administration', async (t) => {
  t.test('rename and describe, with events on another queue and notices in "channel events"', async (t) => {
    const { iago, hamlet } = await world(t);
    const watcher = await register(hamlet, { event_types: ['stream'] });
    t.equal((await iago.patch(`/streams/${VERONA}`, { new_name: '  Padua  ', description: 'Fair Padua\nin Italy' })).status, 200);
    const events = await take(watcher);
    t.same(events.map((e) => [e.property, e.value, e.name]), [
      ['description', 'Fair Padua in Italy', 'Verona'],
      ['name', 'Padua', 'Verona'],
    ], 'description first, then the name (the event names the channel by its old name)');
    t.equal(events[0].rendered_description, '<p>Fair Padua in Italy</p>');
    const stream = await streamOf(hamlet, VERONA);
    t.match(stream, { name: 'Padua', description: 'Fair Padua in Italy', rendered_description: '<p>Fair Padua in Italy</p>' });
    const notice = await newestIn(hamlet, VERONA, 'channel events');
    t.equal(notice.content, '@_**Iago|2** renamed channel **Verona** to **Padua**.');
    t.equal(notice.sender_email, 'notification-bot@example.com');
    t.same(error(await iago.patch(`/streams/${VERONA}`, { new_name: 'Padua' })), bad('Channel already has that name.'));
    t.same(error(await iago.patch(`/streams/${VERONA}`, { new_name: 'denmark' })), [400, 'CHANNEL_ALREADY_EXISTS', "Channel 'denmark' already exists"]);
    t.equal((await iago.patch(`/streams/${VERONA}`, { new_name: 'padua' })).status, 200, 'a change of case only is a rename');
    t.same(error(await iago.patch(`/streams/${VERONA}`, { description: 'x'.repeat(1025) })), bad('description is too long (limit: 1024 characters)'));
  });

  t.test('who may administer: organization administrators, and can_administer_channel_group', async (t) => {
    const { iago, hamlet, polonius, othello } = await world(t);
    t.same(error(await hamlet.patch(`/streams/${VERONA}`, { description: 'mine' })), CANNOT_ADMINISTER, 'a reader is told why');
    t.same(error(await hamlet.patch(`/streams/${CORE_TEAM}`, { description: 'mine' })), INVALID_CHANNEL, 'a private channel is not revealed');
    t.same(error(await polonius.patch(`/streams/${DENMARK}`, { description: 'mine' })), INVALID_CHANNEL, 'nor a public one to a guest not in it');
    t.same(error(await hamlet.patch('/streams/9999', { description: 'x' })), INVALID_CHANNEL);
    const created = await othello.post('/users/me/subscriptions', { subscriptions: [{ name: 'garden' }], invite_only: true });
    t.equal(created.status, 200);
    const garden = (await othello.get('/get_stream_id', { stream: 'garden' })).body.stream_id;
    t.equal((await othello.patch(`/streams/${garden}`, { description: 'the creator administers it' })).status, 200);
    t.equal((await iago.patch(`/streams/${garden}`, { new_name: 'walled garden' })).status, 200, 'an administrator needs no subscription to rename');
    t.same(error(await iago.patch(`/streams/${garden}`, { is_private: false })), bad('Channel content access is required.'));
    t.same(error(await iago.patch(`/streams/${VERONA}`, { can_administer_channel_group: { new: await systemGroup(iago, 'role:everyone') } })),
      bad("'can_administer_channel_group' setting cannot be set to 'role:everyone' group."));
    t.equal((await iago.patch(`/streams/${VERONA}`, { can_administer_channel_group: { new: { direct_members: [HAMLET], direct_subgroups: [] } } })).status, 200);
    t.equal((await hamlet.patch(`/streams/${VERONA}`, { description: 'now mine' })).status, 200, 'a member of the group administers the channel');
    t.same((await streamOf(hamlet, VERONA)).can_administer_channel_group, { direct_members: [HAMLET], direct_subgroups: [] });
    t.same(error(await hamlet.patch(`/streams/${VERONA}`, { can_delete_own_message_group: { new: await systemGroup(iago, 'role:members') } })), bad('Insufficient permission'),
      'who may delete messages needs can_set_delete_message_policy_group as well');
    t.equal((await iago.patch(`/streams/${VERONA}`, { can_delete_own_message_group: { new: await systemGroup(iago, 'role:members') } })).status, 200);
  });

  t.test('privacy and history: Zulip\'s combinations, and who learns of the channel', async (t) => {
    const { iago, desdemona, othello } = await world(t);
    t.same(error(await iago.patch(`/streams/${DENMARK}`, { is_private: false, history_public_to_subscribers: false })), bad('Invalid parameters'));
    t.same(error(await iago.patch(`/streams/${DENMARK}`, { is_web_public: true })), bad('Web-public channels are not enabled.'));
    t.same(error(await iago.patch(`/streams/${GENERAL}`, { is_private: true })), bad('A default channel cannot be private.'));
    t.same(error(await iago.patch(`/streams/${MODERATION}`, { is_private: false })), bad('Moderation request channel must be private.'));
    const outsider = await register(othello, { event_types: ['stream', 'subscription'] });
    t.equal((await desdemona.patch(`/streams/${CORE_TEAM}`, { is_private: false })).status, 200);
    const learned = await take(outsider);
    t.same(learned.map((e) => [e.type, e.op]), [['stream', 'create'], ['subscription', 'peer_add']], 'a member who could not see it gets it created, with its subscribers');
    t.match(learned[0].streams[0], { stream_id: CORE_TEAM, invite_only: false, history_public_to_subscribers: true });
    t.same(learned[1].user_ids.length, 2);
    const insider = await register(othello, { event_types: ['stream'] });
    t.equal((await iago.patch(`/streams/${DENMARK}`, { is_private: true })).status, 200);
    t.same((await take(insider)).map((e) => [e.property, e.value, e.history_public_to_subscribers, e.is_web_public]), [['invite_only', true, false, false]],
      'private alone means protected history, as Zulip');
    const notice = await newestIn(iago, DENMARK, 'channel events');
    t.equal(notice.content, '@_**Iago|2** changed the [access permissions](/help/channel-permissions) for this channel from **Public** to **Private, protected history**.');
    t.equal((await iago.patch(`/streams/${DENMARK}`, { history_public_to_subscribers: true })).status, 200);
    t.match(await streamOf(iago, DENMARK), { invite_only: true, history_public_to_subscribers: true });
  });

  t.test('group settings as {new, old}, with the legacy posting events and notice', async (t) => {
    const { iago, hamlet } = await world(t);
    const admins = await systemGroup(iago, 'role:administrators');
    const everyone = await systemGroup(iago, 'role:everyone');
    const watcher = await register(hamlet, { event_types: ['stream'] });
    t.same(error(await iago.patch(`/streams/${VERONA}`, { can_send_message_group: { new: admins, old: admins } })),
      [400, 'EXPECTATION_MISMATCH', "'old' value does not match the expected value."]);
    t.equal((await iago.patch(`/streams/${VERONA}`, { can_send_message_group: { new: admins, old: everyone } })).status, 200);
    t.same((await take(watcher)).map((e) => [e.property, e.value]), [
      ['can_send_message_group', admins], ['stream_post_policy', 2], ['is_announcement_only', true],
    ]);
    t.same(error(await hamlet.post('/messages', { type: 'stream', to: VERONA, topic: 'x', content: 'y' })), bad("You do not have permission to post in this channel."));
    const notice = await newestIn(iago, VERONA, 'channel events');
    t.equal(notice.content, '@_**Iago|2** changed the [posting permissions](/help/channel-posting-policy) for this channel:\n\n* **Old**: @_*role:everyone*\n* **New**: @_*role:administrators*');
    t.equal((await iago.patch(`/streams/${VERONA}`, { can_remove_subscribers_group: { new: { direct_members: [OTHELLO], direct_subgroups: [admins] } } })).status, 200);
    t.same((await streamOf(hamlet, VERONA)).can_remove_subscribers_group, { direct_members: [OTHELLO], direct_subgroups: [admins] });
    t.same(error(await iago.patch(`/streams/${VERONA}`, { can_subscribe_group: { new: 99999 } })), bad('Invalid user group'));
  });

  t.test('retention (owners only), topics policy and folder', async (t) => {
    const { iago, desdemona, hamlet } = await world(t);
    const watcher = await register(hamlet, { event_types: ['stream'] });
    t.same(error(await iago.patch(`/streams/${VERONA}`, { message_retention_days: 30 })), bad('Must be an organization owner'));
    t.same(error(await desdemona.patch(`/streams/${VERONA}`, { message_retention_days: 0 })), bad("Bad value for 'message_retention_days': 0"));
    t.same(error(await desdemona.patch(`/streams/${VERONA}`, { message_retention_days: 'forever' })), bad("Bad value for 'message_retention_days': forever"));
    t.equal((await desdemona.patch(`/streams/${VERONA}`, { message_retention_days: 30 })).status, 200);
    t.equal((await desdemona.patch(`/streams/${VERONA}`, { message_retention_days: 'unlimited' })).status, 200);
    t.equal((await desdemona.patch(`/streams/${VERONA}`, { message_retention_days: 'realm_default' })).status, 200);
    t.same((await take(watcher)).map((e) => [e.property, e.value]), [['message_retention_days', 30], ['message_retention_days', -1], ['message_retention_days', null]]);
    const notice = await newestIn(iago, VERONA, 'channel events');
    t.equal(notice.content, '@_**Desdemona|1** has changed the [message retention period](/help/message-retention-policy) for this channel:\n* **Old retention period**: Forever\n* **New retention period**: Forever\n\nMessages in this channel will now be retained forever.');
    t.equal((await iago.patch(`/streams/${VERONA}`, { topics_policy: 'disable_empty_topic' })).status, 200);
    t.same(error(await iago.patch(`/streams/${VERONA}`, { topics_policy: 'sometimes' })), bad('Invalid topics_policy'));
    t.same(error(await iago.patch(`/streams/${VERONA}`, { folder_id: 77 })), bad('Invalid channel folder ID'));
    const folder = (await iago.post('/channel_folders/create', { name: 'Italy', description: '' })).body.channel_folder_id;
    t.equal((await iago.patch(`/streams/${VERONA}`, { folder_id: folder })).status, 200);
    t.same((await take(watcher)).map((e) => [e.property, e.value]), [['topics_policy', 'disable_empty_topic'], ['folder_id', folder]]);
    t.match(await streamOf(hamlet, VERONA), { folder_id: folder, topics_policy: 'disable_empty_topic', message_retention_days: null });
    t.equal((await iago.patch(`/streams/${VERONA}`, { folder_id: null })).status, 200);
    t.equal((await streamOf(hamlet, VERONA)).folder_id, null);
  });

  t.test('archiving and unarchiving: an update for queues that know archived channels, a deletion or creation for the others', async (t) => {
    const { iago, hamlet } = await world(t);
    const modern = await register(hamlet, { event_types: ['stream', 'default_streams'], client_capabilities: { archived_channels: true } });
    const legacy = await register(hamlet, { event_types: ['stream', 'default_streams'] });
    t.same(error(await hamlet.delete(`/streams/${DENMARK}`)), CANNOT_ADMINISTER);
    t.equal((await iago.delete(`/streams/${GENERAL}`)).status, 200);
    t.same(error(await iago.delete(`/streams/${GENERAL}`)), bad('Channel is already deactivated'));
    const archivedModern = await take(modern);
    const archivedLegacy = await take(legacy);
    t.same(ofType(archivedModern, 'stream').map((e) => [e.op, e.property, e.value]), [['update', 'is_archived', true]]);
    t.same(ofType(archivedLegacy, 'stream').map((e) => [e.op, e.stream_ids]), [['delete', [GENERAL]]]);
    t.same(ofType(archivedLegacy, 'default_streams').map((e) => e.default_streams), [[]], 'an archived channel is no longer a default one');
    t.notOk((await hamlet.get('/streams')).body.streams.some((s: { stream_id: number }) => s.stream_id === GENERAL), 'GET /streams leaves it out');
    t.notOk((await hamlet.post('/register', { fetch_event_types: ['subscription'] })).body.subscriptions.some((s: { stream_id: number }) => s.stream_id === GENERAL));
    const capable = (await hamlet.post('/register', { fetch_event_types: ['subscription'], client_capabilities: { archived_channels: true } })).body.subscriptions;
    t.match(capable.find((s: { stream_id: number }) => s.stream_id === GENERAL), { is_archived: true }, 'a client that knows archived channels keeps the subscription');
    t.equal((await newestIn(hamlet, GENERAL, 'channel events')).content, 'Channel #**general** has been archived.');
    t.same(error(await iago.patch(`/streams/${DENMARK}`, { is_archived: false })), bad('Channel is not currently deactivated'));
    t.equal((await iago.patch(`/streams/${GENERAL}`, { is_archived: false })).status, 200);
    t.same(ofType(await take(modern), 'stream').map((e) => [e.op, e.property, e.value]), [['update', 'is_archived', false]]);
    t.same(ofType(await take(legacy), 'stream').map((e) => [e.op, e.streams[0].stream_id]), [['create', GENERAL]]);
    t.equal((await streamOf(hamlet, GENERAL)).is_archived, false);
  });

  t.test('deleting a topic: administrators only, every message, complete', async (t) => {
    const { iago, hamlet, othello } = await world(t);
    const ids = [await send(hamlet, VERONA, 'doomed', 'one'), await send(othello, VERONA, 'doomed', 'two'), await send(hamlet, VERONA, 'doomed', 'three')];
    const kept = await send(hamlet, VERONA, 'kept', 'stays');
    t.equal((await hamlet.post('/user_topics', { stream_id: VERONA, topic: 'doomed', visibility_policy: 1 })).status, 200);
    const bulk = await register(othello, { event_types: ['delete_message'], client_capabilities: { bulk_message_deletion: true } });
    const single = await register(othello, { event_types: ['delete_message'] });
    const topics = await register(hamlet, { event_types: ['user_topic'] });
    t.same(error(await hamlet.post(`/streams/${VERONA}/delete_topic`, { topic_name: 'doomed' })), bad('Must be an organization administrator'));
    t.same(error(await iago.post(`/streams/${SCOTLAND + 100}/delete_topic`, { topic_name: 'doomed' })), INVALID_CHANNEL);
    const answer = await iago.post(`/streams/${VERONA}/delete_topic`, { topic_name: 'doomed' });
    t.same([answer.status, answer.body.complete], [200, true]);
    for (const id of ids) t.same(error(await hamlet.get(`/messages/${id}`)), bad('Invalid message(s)'));
    t.equal((await hamlet.get(`/messages/${kept}`)).status, 200, 'other topics stay');
    t.same((await take(bulk)).map((e) => e.message_ids), [ids], 'one event with every id for bulk clients');
    t.same((await take(single)).map((e) => e.message_id), ids, 'one event per message for the others');
    t.same((await take(topics)).map((e) => [e.topic_name, e.visibility_policy]), [['doomed', 0]], 'the visibility policy goes with the topic');
    t.notOk((await hamlet.get(`/users/me/${VERONA}/topics`)).body.topics.some((topic: { name: string }) => topic.name === 'doomed'));
  });

  t.test('members, one user\'s subscription, the email address', async (t) => {
    const { iago, hamlet, polonius } = await world(t);
    t.same((await hamlet.get(`/streams/${SCOTLAND}/members`)).body.subscribers, [OTHELLO, 6]);
    t.same((await iago.get(`/streams/${CORE_TEAM}/members`)).body.subscribers, [1, 2], 'administrators see a private channel\'s members');
    t.same(error(await hamlet.get(`/streams/${CORE_TEAM}/members`)), INVALID_CHANNEL);
    t.same(error(await polonius.get(`/streams/${SCOTLAND}/members`)), INVALID_CHANNEL, 'a guest only sees channels they are in');
    t.same((await hamlet.get(`/users/${OTHELLO}/subscriptions/${SCOTLAND}`)).body, { result: 'success', msg: '', is_subscribed: true });
    t.equal((await hamlet.get(`/users/${HAMLET}/subscriptions/${SCOTLAND}`)).body.is_subscribed, false);
    t.same(error(await hamlet.get(`/users/${OTHELLO}/subscriptions/${CORE_TEAM}`)), INVALID_CHANNEL);
    t.same(error(await hamlet.get(`/users/9999/subscriptions/${SCOTLAND}`)), bad('No such user'));
    t.same(error(await polonius.get(`/users/${HAMLET}/subscriptions/${DENMARK}`)), INVALID_CHANNEL);
    t.same((await hamlet.get(`/streams/${VERONA}/email_address`)).body, { result: 'success', msg: '', email: '' }, 'no email gateway: an empty address');
    t.same(error(await hamlet.get(`/streams/${VERONA}/email_address`, { sender_id: OTHELLO })), bad('No such bot'));
    t.same(error(await polonius.get(`/streams/${DENMARK}/email_address`)), INVALID_CHANNEL);
  });

  t.test('default channels: administrators, never private, and new users get them', async (t) => {
    const { server, iago, hamlet } = await world(t);
    const watcher = await register(hamlet, { event_types: ['default_streams'] });
    t.same(error(await hamlet.post('/default_streams', { stream_id: VERONA })), bad('Must be an organization administrator'));
    t.same(error(await iago.post('/default_streams', { stream_id: CORE_TEAM })), bad('Private channels cannot be made default.'));
    t.same(error(await iago.post('/default_streams', { stream_id: 9999 })), INVALID_CHANNEL);
    t.equal((await iago.post('/default_streams', { stream_id: SCOTLAND })).status, 200);
    t.same((await take(watcher)).map((e) => e.default_streams), [[GENERAL, SCOTLAND]]);
    t.same((await hamlet.post('/register', { fetch_event_types: ['default_streams'] })).body.realm_default_streams, [GENERAL, SCOTLAND]);
    t.same((await hamlet.get('/streams', { include_default: true, include_public: false, include_subscribed: false })).body.streams.map((s: { stream_id: number }) => s.stream_id).sort(), [GENERAL, SCOTLAND]);
    const created = await iago.post('/users', { email: 'miranda@example.com', full_name: 'Miranda', password: 'a long enough password' });
    t.equal(created.status, 200);
    const miranda = clientFor(server, 'miranda@example.com');
    t.same((await miranda.get('/users/me/subscriptions')).body.subscriptions.map((s: { stream_id: number }) => s.stream_id).sort(), [GENERAL, SCOTLAND]);
    t.equal((await iago.patch(`/streams/${SCOTLAND}`, { is_default_stream: false })).status, 200);
    t.same(error(await hamlet.patch(`/streams/${SCOTLAND}`, { is_default_stream: true })), CANNOT_ADMINISTER);
    t.equal((await iago.post('/default_streams', { stream_id: DENMARK })).status, 200);
    t.equal((await iago.delete('/default_streams', { stream_id: DENMARK })).status, 200);
    t.same((await take(watcher)).map((e) => e.default_streams), [[GENERAL], [GENERAL, DENMARK], [GENERAL]]);
  });

  t.test('joining by invitation: the default channels as they are now, and the organization\'s setting defaults', async (t) => {
    const { server, iago } = await world(t);
    t.equal((await iago.post('/default_streams', { stream_id: SCOTLAND })).status, 200);
    t.equal((await iago.delete('/default_streams', { stream_id: GENERAL })).status, 200);
    t.equal((await iago.patch('/realm/user_settings_defaults', { left_side_userlist: true })).status, 200);
    t.equal((await iago.post('/invites', { invitee_emails: 'nora@example.com', stream_ids: [DENMARK], include_realm_default_subscriptions: true })).status, 200);
    const mail = (await server.services.outbox.list()).filter((m) => m.to === 'nora@example.com').at(-1)!;
    const link = /(https?:\/\/[^\s"<]+\/join\/[a-z2-7]{24}\/)/.exec(mail.text)![1]!;
    const joined = await fetch(link, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ full_name: 'Nora New', password: 'correct horse' }).toString() });
    t.equal(joined.status, 200);
    const nora = clientFor(server, 'nora@example.com');
    t.same((await nora.get('/users/me/subscriptions')).body.subscriptions.map((s: { stream_id: number }) => s.stream_id).sort(), [DENMARK, SCOTLAND]);
    t.equal((await nora.post('/register', { fetch_event_types: ['user_settings'] })).body.user_settings.left_side_userlist, true);
  });

  t.test('after a restart', async (t) => {
    const w = await world(t);
    await w.iago.patch(`/streams/${VERONA}`, { new_name: 'Padua', can_send_message_group: { new: await systemGroup(w.iago, 'role:moderators') } });
    await w.iago.delete(`/streams/${SCOTLAND}`);
    await w.iago.post('/default_streams', { stream_id: DENMARK });
    const folder = (await w.iago.post('/channel_folders/create', { name: 'Old', description: 'Kept' })).body.channel_folder_id;
    await w.iago.patch(`/streams/${DENMARK}`, { folder_id: folder });
    const restarted = await w.server.restart();
    t.teardown(() => restarted.destroy());
    const hamlet = clientFor(restarted, 'hamlet@example.com');
    t.match(await streamOf(hamlet, VERONA), { name: 'Padua', stream_post_policy: 4 });
    t.match(await streamOf(hamlet, DENMARK), { folder_id: folder });
    t.equal((await streamOf(clientFor(restarted, 'othello@example.com'), SCOTLAND)).is_archived, true);
    t.same((await hamlet.post('/register', { fetch_event_types: ['default_streams', 'channel_folders'] })).body.realm_default_streams, [GENERAL, DENMARK]);
  });
});
