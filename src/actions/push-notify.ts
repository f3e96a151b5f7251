/**
 * Sending one push through the bouncer (Zulip's handle_push_notification,
 * handle_remove_push_notification and send_notifications_to_bouncer): the message still unread
 * and readable, the payloads for Apple and Android, `remotes/push/notify` with the user's device
 * tokens; then the job leaves the outbox, the push is recorded as standing on the devices, and
 * tokens the bouncer says it deleted are forgotten.
 */
import { avatarUrlFor } from '../domain/avatar.js';
import { Flag, type MessageRecord } from '../domain/messages.js';
import type { Trigger } from '../domain/notification-rules.js';
import { messagePayloads, removePayloads, type PushMessage, type PushRealm } from '../domain/push-payloads.js';
import { tokenKey, type TokenRecord } from '../domain/push-devices.js';
import { apiEmail, EmailVisibility, type UserRecord } from '../domain/users.js';
import { accessMessage } from '../queries/message-access.js';
import { pushDeviceBook } from '../queries/push-devices.js';
import type { Services } from '../services.js';
import type { PushJob } from '../store/notification-outbox.js';
import { bouncerOutcome, postJsonToBouncer, realmUuid, userUuid, type BouncerResponse } from './push-bouncer.js';

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
    message.channel = { id: channel.id, name: channel.name, topic: record.topic! };
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

/** The payloads of a job, or undefined when there is nothing (left) to send. */
function payloadsOf(services: Services, user: UserRecord, job: PushJob): ReturnType<typeof removePayloads> | undefined {
  if (job.kind === 'remove') return removePayloads(pushRealm(services), user.id, job.messageIds);
  const record = services.messages.get(job.messageId);
  const flags = record && accessMessage(services, user, record);
  // Read meanwhile, deleted, or no longer readable: no push (Zulip checks the same at sending).
  if (!record || flags === undefined || flags & Flag.read) return undefined;
  if (services.notifications.activePushes(user.id).has(job.messageId)) return undefined;
  const message = pushMessage(services, record, job.mentionedGroupId);
  return message && messagePayloads(pushRealm(services), user.id, message, job.trigger as Trigger);
}

/** Delivers one job; 'retry' when the bouncer could not take it now. */
export async function deliverPushJob(services: Services, job: PushJob): Promise<'done' | 'retry'> {
  const url = services.config.pushBouncerUrl;
  const user = services.org.users.get(job.userId);
  const tokens = user ? tokensOf(services, user.id) : [];
  const payloads = url !== undefined && user?.isActive && tokens.length > 0 ? payloadsOf(services, user, job) : undefined;
  if (!payloads || !user || url === undefined) {
    await services.write((tx) => services.notifications.dropJob(job.id, tx));
    return 'done';
  }
  let response: BouncerResponse | Error;
  try {
    response = await postJsonToBouncer(services, url, 'push/notify', notifyBody(services, user, tokens, payloads));
  } catch (error) {
    response = error instanceof Error ? error : new Error(String(error));
  }
  const outcome = bouncerOutcome(response);
  if (outcome === 'retry') return 'retry';
  if (outcome === 'refused') services.logger.warn({ job: job.id, response }, 'push bouncer refused a notification');
  const deleted = outcome === 'done' ? deletedTokens((response as BouncerResponse).body) : [];
  await services.write((tx) => {
    services.notifications.dropJob(job.id, tx);
    if (outcome === 'done' && job.kind === 'message') services.notifications.setActivePush(user.id, job.messageId, true, tx);
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
