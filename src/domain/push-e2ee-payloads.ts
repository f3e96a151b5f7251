/**
 * End-to-end encrypted mobile notifications as Zulip 11 builds them (zerver/lib/push_notifications.py,
 * send_push_notifications; the formats in api_docs/mobile-notifications.md): the JSON that is
 * encrypted for the device, and the request to the bouncer's `push/e2ee/notify` that wraps it
 * per device (APNs headers and payload, or FCM priority and payload).
 */
import type { Payload, PushMessage, PushRealm } from './push-payloads.js';
import { MAX_REMOVE_IDS } from './push-payloads.js';
import { mobilePushContent, truncateContent } from './push-content.js';
import type { TokenKind } from './push-devices.js';

/** What every encrypted notification names: the organization and the recipient. */
function base(realm: PushRealm, userId: number): Payload {
  return { realm_name: realm.realmName, realm_url: realm.realmUrl, user_id: userId };
}

/** The data of a `message` notification (new channel message, new direct message). */
export function e2eeMessageData(realm: PushRealm, userId: number, message: PushMessage): Payload {
  const data: Payload = {
    ...base(realm, userId),
    type: 'message',
    message_id: message.id,
    sender_id: message.sender.id,
    sender_full_name: message.sender.fullName,
    sender_avatar_url: message.sender.avatarUrl,
    time: message.timestamp,
    content: truncateContent(mobilePushContent(message.renderedContent)).content,
  };
  if (message.channel) {
    data.recipient_type = 'channel';
    data.channel_id = message.channel.id;
    data.channel_name = message.channel.name;
    data.topic = message.channel.topic;
  } else {
    data.recipient_type = 'direct';
    if (message.group) data.pm_users = [...message.group.ids].sort((a, b) => a - b).join(',');
  }
  if (message.mentionedGroup) {
    data.mentioned_user_group_id = message.mentionedGroup.id;
    data.mentioned_user_group_name = message.mentionedGroup.name;
  }
  return data;
}

/** The data of a `remove` notification (read, deleted): the newest ids, as the unencrypted one. */
export function e2eeRemoveData(realm: PushRealm, userId: number, messageIds: readonly number[]): Payload {
  const ids = [...messageIds].sort((a, b) => a - b).slice(-MAX_REMOVE_IDS);
  return { ...base(realm, userId), type: 'remove', message_ids: ids };
}

/** One device's entry in `push_requests`. */
export interface E2eeDevice {
  bouncerDeviceId: number;
  pushAccountId: number;
  tokenKind: TokenKind;
}

/**
 * What Zulip's APNsPayload puts in every E2EE push for Apple, message and removal alike: an alert
 * the app's notification service extension replaces with the decrypted content (no sound: the
 * app adds one if it shows a message).
 */
const APNS_APS = { 'mutable-content': 1, alert: { title: 'New notification' } } as const;

/**
 * A device's push request (Zulip's FCMPushRequest / APNsPushRequest, sent as dataclass fields):
 * the encrypted data under its push account id; for Android the FCM priority, for Apple the
 * APNs headers `apns_priority` and `apns_push_type` (a removal at 5, in the background; a
 * message at 10, as an alert).
 */
export function e2eePushRequest(device: E2eeDevice, encryptedData: string, removal: boolean): Payload {
  const payload: Payload = { push_account_id: device.pushAccountId, encrypted_data: encryptedData };
  if (device.tokenKind === 'fcm') return { device_id: device.bouncerDeviceId, fcm_priority: removal ? 'normal' : 'high', payload };
  return {
    device_id: device.bouncerDeviceId,
    http_headers: { apns_priority: removal ? 5 : 10, apns_push_type: removal ? 'background' : 'alert' },
    payload: { ...payload, aps: { ...APNS_APS, alert: { ...APNS_APS.alert } } },
  };
}
