/**
 * Posting what an incoming webhook says (Zulip's `check_send_webhook_message`): into the
 * channel named by `stream` (a name or an id) and the topic (the URL's `topic` first), or as a
 * direct message to the bot's owner when no channel is given. A channel that does not exist,
 * or has no subscribers, is told to the owner by the notification bot (at most once in five
 * minutes), and the request still succeeds, as in Zulip.
 */
import type { ChannelRecord } from '../domain/channel-record.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import { prepareMessage, writeMessage } from './message-send.js';
import { notifyDirect } from './notifications.js';

const REMINDER_WAIT_MS = 5 * 60 * 1000;

export interface WebhookTarget {
  stream?: string;
  topic?: string;
  only_events?: readonly string[];
  exclude_events?: readonly string[];
}

/** Python's fnmatch: `*`, `?` and `[...]` over the whole name. */
function fnmatch(name: string, pattern: string): boolean {
  let source = '';
  for (const c of pattern) source += c === '*' ? '.*' : c === '?' ? '.' : c === '[' || c === ']' ? c : c.replace(/[.*+?^${}()|\\/-]/g, '\\$&');
  try {
    return new RegExp(`^${source}$`, 's').test(name);
  } catch {
    return name === pattern;
  }
}

function eventWanted(event: string | undefined, target: WebhookTarget): boolean {
  if (event === undefined) return true;
  if (target.only_events && !target.only_events.some((p) => fnmatch(event, p))) return false;
  if (target.exclude_events && target.exclude_events.some((p) => fnmatch(event, p))) return false;
  return true;
}

/** Zulip's `send_rate_limited_pm_notification_to_bot_owner`. */
async function tellOwner(services: Services, bot: UserRecord, content: string): Promise<void> {
  const now = services.clock.now();
  if (bot.botOwnerId === null || (bot.lastReminder !== undefined && now - bot.lastReminder <= REMINDER_WAIT_MS)) return;
  const owner = services.org.users.get(bot.botOwnerId);
  if (!owner?.isActive) return;
  await services.write((tx) => {
    notifyDirect(services, tx, owner, content);
    services.org.users.save({ ...services.org.users.get(bot.id)!, lastReminder: now }, tx);
  });
}

function findChannel(services: Services, stream: string): ChannelRecord | undefined {
  const channel = /^[0-9]+$/.test(stream) ? services.org.channels.get(Number(stream)) : services.org.channels.byName(stream);
  return channel && !channel.isArchived ? channel : undefined;
}

export async function sendWebhookMessage(services: Services, bot: UserRecord, client: string, target: WebhookTarget, message: { event?: string; topic: string; body: string }): Promise<void> {
  if (!eventWanted(message.event, target)) return;
  const identity = `\`${bot.deliveryEmail}\``;
  if (target.stream === undefined) {
    const owner = (bot.botOwnerId === null ? undefined : services.org.users.get(bot.botOwnerId)) ?? bot;
    const out = prepareMessage(services, bot, client, { type: 'private', to: [owner.id], content: message.body });
    await services.write((tx) => writeMessage(services, tx, out));
    return;
  }
  const channel = findChannel(services, target.stream);
  if (!channel) {
    const content = /^[0-9]+$/.test(target.stream)
      ? `Your bot ${identity} tried to send a message to channel ID ${target.stream}, but there is no channel with that ID.`
      : `Your bot ${identity} tried to send a message to channel #**${target.stream}**, but that channel does not exist. Click [here](#channels/new) to create it.`;
    await tellOwner(services, bot, content);
    return;
  }
  const topic = target.topic ?? message.topic;
  const out = prepareMessage(services, bot, client, { type: 'stream', to: channel.id, topic, content: message.body });
  await services.write((tx) => writeMessage(services, tx, out));
  if (services.subscriptions.subscribersOf(channel.id).size === 0) {
    await tellOwner(services, bot, `Your bot ${identity} tried to send a message to channel #**${channel.name}**. The channel exists but does not have any subscribers.`);
  }
}
