/**
 * The payloads of mobile notifications as Zulip builds them for the bouncer's `push/notify`
 * (zerver/lib/push_notifications.py: get_base_payload, get_message_payload,
 * get_message_payload_apns, get_message_payload_gcm, get_remove_payload_*, and the test
 * notification of send_test_push_notification), from plain facts.
 */
import { MENTION_TRIGGERS, Trigger } from './notification-rules.js';
import { mobilePushContent, truncateContent } from './push-content.js';

export type Payload = Record<string, unknown>;

/** What every notification names: the server and organization, so the app can route it. */
export interface PushRealm {
  /** The server's host (Zulip's EXTERNAL_HOST). */
  server: string;
  realmId: number;
  realmUrl: string;
  realmName: string;
}

export interface PushMessage {
  id: number;
  sender: { id: number; email: string; fullName: string; avatarUrl: string };
  /** Unix seconds. */
  timestamp: number;
  renderedContent: string;
  /** A channel message's channel and topic; else a direct message. */
  channel?: { id: number; name: string; topic: string };
  /** A group direct message's participants (ids, and full names), including the recipient. */
  group?: { ids: number[]; names: string[] };
  mentionedGroup?: { id: number; name: string };
}

/** Zulip's get_base_payload. */
export function basePayload(realm: PushRealm, userId: number): Payload {
  return { server: realm.server, realm_id: realm.realmId, realm_name: realm.realmName, realm_uri: realm.realmUrl, realm_url: realm.realmUrl, user_id: userId };
}

/** Zulip's get_message_payload: the fields Android and Apple share. */
function messagePayload(realm: PushRealm, userId: number, message: PushMessage): Payload {
  const data = basePayload(realm, userId);
  data.sender_id = message.sender.id;
  data.sender_email = message.sender.email;
  data.time = message.timestamp;
  if (message.mentionedGroup) {
    data.mentioned_user_group_id = message.mentionedGroup.id;
    data.mentioned_user_group_name = message.mentionedGroup.name;
  }
  if (message.channel) {
    data.recipient_type = 'stream';
    data.stream = message.channel.name;
    data.stream_id = message.channel.id;
    data.topic = message.channel.topic;
  } else {
    data.recipient_type = 'private';
    if (message.group) data.pm_users = [...message.group.ids].sort((a, b) => a - b).join(',');
  }
  return data;
}

/** Zulip's get_apns_alert_title: the conversation. */
function apnsTitle(message: PushMessage): string {
  if (message.group) return [...message.group.names].sort().join(', ');
  if (message.channel) return `#${message.channel.name} > ${message.channel.topic}`;
  return message.sender.fullName;
}

/** Zulip's get_apns_alert_subtitle: who, and why. */
function apnsSubtitle(message: PushMessage, trigger: Trigger): string {
  const name = message.sender.fullName;
  if (trigger === Trigger.MENTION) return message.mentionedGroup ? `${name} mentioned @${message.mentionedGroup.name}:` : `${name} mentioned you:`;
  if (MENTION_TRIGGERS.has(trigger)) return `${name} mentioned everyone:`;
  if (!message.channel && !message.group) return '';
  return `${name}:`;
}

/** The `message` notification for Apple (APNs) and Android (FCM), with the FCM options. */
export function messagePayloads(realm: PushRealm, userId: number, message: PushMessage, trigger: Trigger): { apns: Payload; gcm: Payload; gcmOptions: Payload } {
  const { content, truncated } = truncateContent(mobilePushContent(message.renderedContent));
  const apns: Payload = {
    alert: { title: apnsTitle(message), subtitle: apnsSubtitle(message, trigger), body: content },
    sound: 'default',
    // Zulip sends 0 until the apps handle a real count.
    badge: 0,
    custom: { zulip: { ...messagePayload(realm, userId, message), message_ids: [message.id] } },
  };
  const gcm: Payload = {
    ...messagePayload(realm, userId, message),
    event: 'message',
    zulip_message_id: message.id,
    content,
    content_truncated: truncated,
    sender_full_name: message.sender.fullName,
    sender_avatar_url: message.sender.avatarUrl,
  };
  return { apns, gcm, gcmOptions: { priority: 'high' } };
}

/** Zulip keeps the newest 200 ids of a `remove` (APNs' 4 KB limit). */
export const MAX_REMOVE_IDS = 200;

/** The `remove` notification, for messages read elsewhere (Zulip's handle_remove_push_notification). */
export function removePayloads(realm: PushRealm, userId: number, messageIds: readonly number[]): { apns: Payload; gcm: Payload; gcmOptions: Payload } {
  const ids = [...messageIds].sort((a, b) => a - b).slice(-MAX_REMOVE_IDS);
  const list = ids.join(',');
  const gcm: Payload = { ...basePayload(realm, userId), event: 'remove', zulip_message_ids: list, zulip_message_id: ids[0] };
  const apns: Payload = { badge: 0, custom: { zulip: { ...basePayload(realm, userId), event: 'remove', zulip_message_ids: list } } };
  return { apns, gcm, gcmOptions: { priority: 'normal' } };
}
