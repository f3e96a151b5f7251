/** Notices the notification bot posts (moves, resolved topics, reports), written through the normal send path. */
import type { ChannelRecord } from '../domain/channel-record.js';
import { badRequest } from '../domain/errors.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import type { Transaction } from '../store/transaction.js';
import { writeMessage, type OutgoingMessage, type WrittenMessage } from './message-send.js';

export const silentMention = (user: { id: number; fullName: string }) => `@_**${user.fullName}|${user.id}**`;

export const topicLink = (channel: ChannelRecord, topic: string) => `#**${channel.name}>${topic}**`;

export function notificationBot(services: Services): UserRecord {
  let first: UserRecord | undefined;
  for (const user of services.org.users.all()) {
    if (!user.isSystemBot) continue;
    // By its address, since the welcome bot is a system bot too.
    if (user.deliveryEmail.startsWith('notification-bot@')) return user;
    first ??= user;
  }
  if (first) return first;
  throw badRequest('The notification bot is missing');
}

/**
 * Posts `content` as the notification bot into a channel topic. `readBy` (the person whose
 * action caused it) gets it already read, as Zulip does.
 */
export function notify(services: Services, tx: Transaction, where: { channel: ChannelRecord; topic: string }, content: string, readBy?: UserRecord): WrittenMessage {
  const bot = notificationBot(services);
  return writeMessage(services, tx, {
    sender: bot,
    client: 'Internal',
    readBySender: true,
    readBy: readBy?.id,
    content,
    rendered: services.render(content),
    destination: { type: 'stream', channel: where.channel, topic: where.topic },
  });
}

/**
 * Sends `content` as a direct message from the notification bot (or another system bot, `bot`)
 * to `user` (reminders, failed scheduled messages, the welcome bot's greeting).
 */
export function notifyDirect(services: Services, tx: Transaction, user: UserRecord, content: string, bot = notificationBot(services)): WrittenMessage {
  return writeMessage(services, tx, botDirectMessage(services, user, content, bot));
}

/** The direct message a system bot sends `user`, ready for `writeMessage` (reminders are built ahead of their write). */
export function botDirectMessage(services: Services, user: UserRecord, content: string, bot = notificationBot(services)): OutgoingMessage {
  return {
    sender: bot,
    client: 'Internal',
    readBySender: true,
    content,
    rendered: services.render(content),
    destination: { type: 'private', participants: [user, bot] },
  };
}
