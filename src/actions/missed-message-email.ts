/**
 * A user's missed-message email batch, once due (Zulip's handle_missedmessage_emails): messages
 * read, deleted or no longer readable meanwhile drop out; the rest are grouped by conversation
 * (a channel topic, a 1:1 sender, a group), one mail each, oldest conversation first. With SMTP
 * each mail is sent and then leaves the outbox; without, the mails go to the mail outbox in the
 * same write that empties the batch. A large batch goes in passes of MAIL_ITEMS_PER_PASS messages.
 */
import { Flag, type MessageRecord } from '../domain/messages.js';
import { realmSetting } from '../domain/realm.js';
import type { OutgoingMail } from '../domain/mail.js';
import { missedMessageMail, unsubscribeToken, type MailConversation } from '../domain/missed-message-mail.js';
import { topicKey } from '../domain/topics.js';
import { settingOn } from '../domain/user-settings.js';
import type { UserRecord } from '../domain/users.js';
import { accessMessage } from '../queries/message-access.js';
import { unixSeconds, type Services } from '../services.js';
import type { MissedMail } from '../store/notification-outbox.js';

interface Bucket {
  conversation: MailConversation;
  items: { item: MissedMail; record: MessageRecord }[];
}

/** Zulip's buckets: (recipient, topic) for channels, (recipient, sender) for 1:1, the recipient for groups. */
function bucketOf(services: Services, user: UserRecord, record: MessageRecord): { key: string; conversation: MailConversation } | undefined {
  const { org } = services;
  if (record.type === 'stream') {
    const channel = org.channels.get(record.channelId!);
    if (!channel) return undefined;
    return { key: `s:${channel.id}:${topicKey(record.topic!)}`, conversation: { kind: 'stream', channelId: channel.id, channelName: channel.name, topic: record.topic! } };
  }
  const ids = record.dmUserIds ?? [];
  if (ids.length > 2) {
    const others = ids.filter((id) => id !== user.id).map((id) => ({ id, name: org.users.get(id)?.fullName ?? '' }));
    return { key: `g:${record.recipientId}`, conversation: { kind: 'group', others } };
  }
  const sender = org.users.get(record.senderId);
  return sender && { key: `d:${sender.id}`, conversation: { kind: 'dm', senderId: sender.id, senderName: sender.fullName } };
}

function buckets(services: Services, user: UserRecord, items: MissedMail[]): Bucket[] {
  const byKey = new Map<string, Bucket>();
  for (const item of items) {
    const record = services.messages.get(item.messageId);
    const flags = record && accessMessage(services, user, record);
    if (!record || flags === undefined || flags & Flag.read) continue;
    const bucket = bucketOf(services, user, record);
    if (!bucket) continue;
    let entry = byKey.get(bucket.key);
    if (!entry) byKey.set(bucket.key, (entry = { conversation: bucket.conversation, items: [] }));
    entry.items.push({ item, record });
  }
  // Least recently active conversation first, as Zulip sorts them (items are in message order: the last is the newest).
  const newest = (bucket: Bucket) => bucket.items[bucket.items.length - 1]!.record.id;
  return [...byKey.values()].sort((a, b) => newest(a) - newest(b));
}

function mailFor(services: Services, user: UserRecord, bucket: Bucket, secret: string): OutgoingMail {
  const { org, config } = services;
  const groupId = bucket.items.find(({ item }) => item.mentionedGroupId !== undefined)?.item.mentionedGroupId;
  const personallyMentioned = bucket.items.some(({ item }) => item.trigger === 'mentioned' && item.mentionedGroupId === undefined);
  return missedMessageMail({
    to: user.deliveryEmail,
    from: config.mailFrom,
    recipientName: user.fullName,
    realm: { name: org.realm.name, url: org.url },
    conversation: bucket.conversation,
    messages: bucket.items.map(({ item, record }) => ({
      id: record.id,
      senderName: org.users.get(record.senderId)?.fullName ?? '',
      renderedContent: record.renderedContent,
      trigger: item.trigger,
    })),
    mentionedGroupName: personallyMentioned || groupId === undefined ? undefined : org.groups.get(groupId)?.name,
    // Zulip: the user's choice, within what the organization allows.
    showContent: settingOn(user, 'message_content_in_email_notifications') && realmSetting(org.realm, 'message_content_allowed_in_email_notifications') !== false,
    realmNameInSubject: user.settings.realm_name_in_email_notifications_policy === 2,
    unsubscribeUrl: `${org.url}/accounts/unsubscribe/missed_messages/${unsubscribeToken(secret, user.id)}`,
  });
}

/**
 * Messages one pass mails at most. A batch that grew large (a backlog after a long outage, or a
 * million followed-topic messages) goes in passes of this size, so no pass holds the event loop
 * for long; the delivery yields between passes.
 */
export const MAIL_ITEMS_PER_PASS = 200;

/**
 * Delivers (the oldest `limit` messages of) the user's due batch; 'retry' when the SMTP server
 * could not take a mail now. What is left of the batch goes in the next passes.
 */
export async function deliverMailBatch(services: Services, userId: number, limit = MAIL_ITEMS_PER_PASS): Promise<'done' | 'retry'> {
  const { notifications } = services;
  const items = notifications.missedMailOf(userId, limit);
  const user = services.org.users.get(userId);
  const drop = (ids: number[]) => services.write((tx) => notifications.dropMissedMail(userId, ids, tx));
  if (!user?.isActive || !settingOn(user, 'enable_offline_email_notifications')) {
    await drop(items.map((item) => item.messageId));
    return 'done';
  }
  if (notifications.secret() === '') await services.write((tx) => notifications.secret(tx));
  const due = buckets(services, user, items);
  const smtp = services.smtp;
  if (!smtp) {
    await services.write((tx) => {
      for (const bucket of due) services.outbox.put(mailFor(services, user, bucket, notifications.secret()), unixSeconds(services.clock), tx);
      notifications.dropMissedMail(userId, items.map((item) => item.messageId), tx);
    });
    return 'done';
  }
  for (const bucket of due) {
    try {
      await smtp.send(mailFor(services, user, bucket, notifications.secret()));
    } catch (error) {
      services.logger.warn({ err: error, to: user.deliveryEmail }, 'missed-message email not sent');
      return 'retry';
    }
    // Each conversation's mail leaves the batch as soon as it is sent: a retry sends only the rest.
    await drop(bucket.items.map(({ item }) => item.messageId));
  }
  services.logger.info({ user: userId, mails: due.length }, 'missed-message emails sent');
  // What dropped out (read, deleted) goes too; what joined the batch meanwhile stays for the next round.
  const mailed = new Set(due.flatMap((bucket) => bucket.items.map(({ item }) => item.messageId)));
  await drop(items.filter((item) => !mailed.has(item.messageId)).map((item) => item.messageId));
  return 'done';
}
