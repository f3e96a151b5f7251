/**
 * Sending one push through the bouncer (Zulip's handle_push_notification,
 * handle_remove_push_notification and send_notifications_to_bouncer): the message still unread
 * and readable, the payloads for Apple and Android, `remotes/push/notify` with the user's device
 * tokens; then the job leaves the outbox, the push is recorded as standing on the devices, and
 * tokens the bouncer says it deleted are forgotten. Devices registered end to end get the same
 * notification encrypted (actions/push-e2ee.ts, `remotes/push/e2ee/notify`).
 */
import { avatarUrlFor } from '../domain/avatar.js';
import { Flag, type MessageRecord } from '../domain/messages.js';
import { EMPTY_TOPIC_DISPLAY_NAME, realmSetting } from '../domain/realm.js';
import { displayTopic } from '../domain/topics.js';
import type { Trigger } from '../domain/notification-rules.js';
import { messagePayloads, removePayloads, type PushMessage, type PushRealm } from '../domain/push-payloads.js';
import { e2eeMessageData, e2eeRemoveData } from '../domain/push-e2ee-payloads.js';
import { tokenKey, type TokenRecord } from '../domain/push-devices.js';
import { apiEmail, EmailVisibility, type UserRecord } from '../domain/users.js';
import { accessMessage } from '../queries/message-access.js';
import { pushDeviceBook } from '../queries/push-devices.js';
import type { Services } from '../services.js';
import type { PushJob } from '../store/notification-outbox.js';
import { bouncerOutcome, postJsonToBouncer, realmUuid, userUuid, type BouncerResponse } from './push-bouncer.js';
import { e2eeTargetsOf, sendE2eePush, type E2eeTarget } from './push-e2ee.js';

/** The organization as the apps route notifications (Zulip's get_base_payload). */
export function pushRealm(services: Services): PushRealm {
  return { server: new URL(services.config.externalUrl).host, realmId: services.org.id, realmUrl: services.org.url, realmName: services.org.realm.name };
}

function tokensOf(services: Services, userId: number): TokenRecord[] {
  return pushDeviceBook(services).list(userId).filter((record): record is TokenRecord => record.kind === 'token');
}

function pushMessage(services: Services, record: MessageRecord, mentionedGroupId: number | undefined): PushMessage | undefined {
  const { org } = services;
  const sender = org.users.get(record.senderId);
  if (!sender) return undefined;
  const message: PushMessage = {
    id: record.id,
    sender: {
      id: sender.id,
      email: apiEmail(sender, org.host),
      fullName: sender.fullName,
      avatarUrl: avatarUrlFor(sender, { clientGravatar: false, emailIsPublic: sender.emailAddressVisibility === EmailVisibility.EVERYONE, realmUrl: org.url }) ?? '',
    },
    timestamp: record.timestamp,
    renderedContent: record.renderedContent,
  };
  if (record.type === 'stream') {
    const channel = org.channels.get(record.channelId!);
    if (!channel) return undefined;
    // Zulip's get_topic_display_name: the empty topic shows as "general chat" on the phone.
    message.channel = { id: channel.id, name: channel.name, topic: displayTopic(record.topic!, false, EMPTY_TOPIC_DISPLAY_NAME) };
  } else if ((record.dmUserIds ?? []).length > 2) {
    const ids = record.dmUserIds!;
    message.group = { ids, names: ids.map((id) => org.users.get(id)?.fullName ?? '') };
  }
  const group = mentionedGroupId === undefined ? undefined : org.groups.get(mentionedGroupId);
  if (group) message.mentionedGroup = { id: group.id, name: group.name };
  return message;
}

/** The `push/notify` body for a user's devices (Zulip's send_notifications_to_bouncer). */
function notifyBody(services: Services, user: UserRecord, tokens: TokenRecord[], payloads: ReturnType<typeof removePayloads>): Record<string, unknown> {
  return {
    user_uuid: userUuid(services, user.id),
    user_id: user.id,
    realm_uuid: realmUuid(services),
    apns_payload: payloads.apns,
    gcm_payload: payloads.gcm,
    gcm_options: payloads.gcmOptions,
    android_devices: tokens.filter((t) => t.tokenKind === 'fcm').map((t) => t.token),
    apple_devices: tokens.filter((t) => t.tokenKind === 'apns').map((t) => t.token),
  };
}

/** What a job says: a message's notification, or the removal of some; undefined when there is nothing (left) to send. */
type Content = { kind: 'message'; message: PushMessage; trigger: Trigger } | { kind: 'remove'; messageIds: number[] };

function contentOf(services: Services, user: UserRecord, job: PushJob): Content | undefined {
  if (job.kind === 'remove') return { kind: 'remove', messageIds: job.messageIds };
  const record = services.messages.get(job.messageId);
  const flags = record && accessMessage(services, user, record);
  // Read meanwhile, deleted, or no longer readable: no push (Zulip checks the same at sending).
  if (!record || flags === undefined || flags & Flag.read) return undefined;
  if (services.notifications.activePushes(user.id).has(job.messageId)) return undefined;
  const message = pushMessage(services, record, job.mentionedGroupId);
  return message && { kind: 'message', message, trigger: job.trigger as Trigger };
}

/**
 * An organization that requires end-to-end encryption (`require_e2ee_push_notifications`) lets no
 * message content through the unencrypted payloads: devices without E2EE read "New message".
 */
function redacted(services: Services, message: PushMessage): PushMessage {
  if (realmSetting(services.org.realm, 'require_e2ee_push_notifications') !== true) return message;
  return { ...message, renderedContent: '<p>New message</p>' };
}

/** The deprecated tokens: Zulip's unencrypted payloads through `push/notify`; the tokens the bouncer deleted. */
async function sendToTokens(services: Services, url: string, user: UserRecord, tokens: TokenRecord[], content: Content): Promise<{ outcome: 'done' | 'retry' | 'refused'; gone: string[] }> {
  const realm = pushRealm(services);
  const payloads = content.kind === 'remove' ? removePayloads(realm, user.id, content.messageIds) : messagePayloads(realm, user.id, redacted(services, content.message), content.trigger);
  let response: BouncerResponse | Error;
  try {
    response = await postJsonToBouncer(services, url, 'push/notify', notifyBody(services, user, tokens, payloads));
  } catch (error) {
    response = error instanceof Error ? error : new Error(String(error));
  }
  const outcome = bouncerOutcome(response);
  return { outcome, gone: outcome === 'done' ? deletedTokens((response as BouncerResponse).body) : [] };
}

/** The end-to-end registered devices: the same content, encrypted for each (actions/push-e2ee.ts). */
function sendToE2ee(services: Services, url: string, user: UserRecord, targets: E2eeTarget[], content: Content): ReturnType<typeof sendE2eePush> {
  const realm = pushRealm(services);
  const data = content.kind === 'remove' ? e2eeRemoveData(realm, user.id, content.messageIds) : e2eeMessageData(realm, user.id, content.message);
  return sendE2eePush(services, url, targets, data, content.kind === 'remove');
}

/**
 * Delivers one job to the user's tokens and end-to-end devices; 'retry' when the bouncer could
 * not take it now (both go again then: at least once).
 */
export async function deliverPushJob(services: Services, job: PushJob): Promise<'done' | 'retry'> {
  const url = services.config.pushBouncerUrl;
  const user = services.org.users.get(job.userId);
  const tokens = user ? tokensOf(services, user.id) : [];
  const targets = user ? e2eeTargetsOf(services, user.id) : [];
  const content = url !== undefined && user?.isActive && tokens.length + targets.length > 0 ? contentOf(services, user, job) : undefined;
  if (!content || !user || url === undefined) {
    await services.write((tx) => services.notifications.dropJob(job.id, tx));
    return 'done';
  }
  const sent: { outcome: 'done' | 'retry' | 'refused'; gone: string[] }[] = [];
  if (tokens.length > 0) sent.push(await sendToTokens(services, url, user, tokens, content));
  if (targets.length > 0) sent.push(await sendToE2ee(services, url, user, targets, content));
  if (sent.some((one) => one.outcome === 'retry')) return 'retry';
  if (sent.some((one) => one.outcome === 'refused')) services.logger.warn({ job: job.id }, 'push bouncer refused a notification');
  const delivered = sent.some((one) => one.outcome === 'done');
  const deleted = sent.flatMap((one) => one.gone);
  await services.write((tx) => {
    services.notifications.dropJob(job.id, tx);
    if (delivered && job.kind === 'message') services.notifications.setActivePush(user.id, job.messageId, true, tx);
    const book = pushDeviceBook(services);
    const gone = deleted.filter((key) => book.get(user.id, key));
    if (gone.length > 0) book.drop(user.id, gone, tx);
  });
  return 'done';
}

/** The tokens the bouncer no longer has (its `deleted_devices`), as device-book keys. */
function deletedTokens(body: BouncerResponse['body']): string[] {
  const deleted = body.deleted_devices as { android_devices?: unknown; apple_devices?: unknown } | undefined;
  const list = (value: unknown) => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
  return [...list(deleted?.android_devices).map((t) => tokenKey('fcm', t)), ...list(deleted?.apple_devices).map((t) => tokenKey('apns', t))];
}
