/** Unit tests of end-to-end encrypted notifications: the data that is encrypted (Zulip's api_docs/mobile-notifications.md) and the push requests that carry it. */
import { test } from 'tap';
import { e2eeMessageData, e2eePushRequest, e2eeRemoveData } from '../../src/domain/push-e2ee-payloads.js';
import { MAX_REMOVE_IDS, type PushMessage, type PushRealm } from '../../src/domain/push-payloads.js';

const realm: PushRealm = { server: 'chat.example.com', realmId: 2, realmUrl: 'https://chat.example.com', realmName: 'Example' };
const sender = { id: 6, email: 'aaron@example.com', fullName: 'aaron', avatarUrl: 'https://chat.example.com/avatar/6' };

test('a channel message: the fields of Zulip\'s example, the group named only when it triggered', async (t) => {
  const message: PushMessage = { id: 45, sender, timestamp: 1754385395, renderedContent: '<p>@test_user_group</p>', channel: { id: 10, name: 'Denmark', topic: 'test' }, mentionedGroup: { id: 41, name: 'test_user_group' } };
  t.same(e2eeMessageData(realm, 10, message), {
    channel_id: 10, channel_name: 'Denmark', content: '@test_user_group', mentioned_user_group_id: 41, mentioned_user_group_name: 'test_user_group',
    message_id: 45, realm_name: 'Example', realm_url: 'https://chat.example.com', recipient_type: 'channel', sender_avatar_url: sender.avatarUrl,
    sender_full_name: 'aaron', sender_id: 6, time: 1754385395, topic: 'test', type: 'message', user_id: 10,
  });
  const plain = e2eeMessageData(realm, 10, { id: 45, sender, timestamp: 1, renderedContent: '<p>x</p>', channel: message.channel! });
  t.notOk('mentioned_user_group_id' in plain, 'no group when none triggered it');
});

test('direct messages: pm_users (sorted) only for groups; content as the push text, truncated', async (t) => {
  const one = e2eeMessageData(realm, 10, { id: 46, sender, timestamp: 1, renderedContent: `<p>${'y'.repeat(250)}</p>` });
  t.match(one, { recipient_type: 'direct', message_id: 46, content: 'y'.repeat(200) + '…' });
  t.notOk('pm_users' in one);
  t.notOk('channel_id' in one);
  const group = e2eeMessageData(realm, 10, { id: 47, sender, timestamp: 1, renderedContent: '<p>hi</p>', group: { ids: [15, 6, 12, 10], names: [] } });
  t.equal(group.pm_users, '6,10,12,15');
});

test('remove: the newest ids only, in order', async (t) => {
  const ids = Array.from({ length: MAX_REMOVE_IDS + 5 }, (_, i) => MAX_REMOVE_IDS + 5 - i);
  const data = e2eeRemoveData(realm, 10, ids);
  t.match(data, { type: 'remove', user_id: 10, realm_name: 'Example', realm_url: 'https://chat.example.com' });
  t.same(data.message_ids, Array.from({ length: MAX_REMOVE_IDS }, (_, i) => i + 6));
});

test('push requests as Zulip\'s FCMPushRequest and APNsPushRequest: FCM by priority; APNs headers with underscores, one aps for all', async (t) => {
  t.same(e2eePushRequest({ bouncerDeviceId: 3, pushAccountId: 9, tokenKind: 'fcm' }, 'c2VhbGVk', false), { device_id: 3, fcm_priority: 'high', payload: { push_account_id: 9, encrypted_data: 'c2VhbGVk' } });
  t.same(e2eePushRequest({ bouncerDeviceId: 3, pushAccountId: 9, tokenKind: 'fcm' }, 'x', true), { device_id: 3, fcm_priority: 'normal', payload: { push_account_id: 9, encrypted_data: 'x' } });
  const aps = { 'mutable-content': 1, alert: { title: 'New notification' } };
  t.same(e2eePushRequest({ bouncerDeviceId: 4, pushAccountId: 8, tokenKind: 'apns' }, 'x', false), {
    device_id: 4, http_headers: { apns_priority: 10, apns_push_type: 'alert' }, payload: { push_account_id: 8, encrypted_data: 'x', aps },
  });
  t.same(e2eePushRequest({ bouncerDeviceId: 4, pushAccountId: 8, tokenKind: 'apns' }, 'y', true), {
    device_id: 4, http_headers: { apns_priority: 5, apns_push_type: 'background' }, payload: { push_account_id: 8, encrypted_data: 'y', aps },
  });
});
