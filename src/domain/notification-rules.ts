/**
 * Who gets a mobile push and a missed-message email for a message, and why: Zulip's rules
 * (zerver/lib/notification_data.py, zerver/actions/message_send.py get_recipient_info,
 * zerver/tornado/event_queue.py maybe_enqueue_notifications and the idle check), as pure
 * functions over plain facts about one recipient.
 */
import { VisibilityPolicy } from './topic-visibility.js';
import { settingOn } from './user-settings.js';
import type { UserRecord } from './users.js';

/** Zulip's NotificationTriggers (zerver/models/scheduled_jobs.py): why a notification is sent. */
export const Trigger = {
  DIRECT_MESSAGE: 'direct_message',
  MENTION: 'mentioned',
  TOPIC_WILDCARD_MENTION: 'topic_wildcard_mentioned',
  STREAM_WILDCARD_MENTION: 'stream_wildcard_mentioned',
  STREAM_PUSH: 'stream_push_notify',
  STREAM_EMAIL: 'stream_email_notify',
  FOLLOWED_TOPIC_PUSH: 'followed_topic_push_notify',
  FOLLOWED_TOPIC_EMAIL: 'followed_topic_email_notify',
  TOPIC_WILDCARD_MENTION_IN_FOLLOWED_TOPIC: 'topic_wildcard_mentioned_in_followed_topic',
  STREAM_WILDCARD_MENTION_IN_FOLLOWED_TOPIC: 'stream_wildcard_mentioned_in_followed_topic',
} as const;
export type Trigger = (typeof Trigger)[keyof typeof Trigger];

/** The triggers that count as a mention (the email's wording, Zulip's `mention` context). */
export const MENTION_TRIGGERS: ReadonlySet<Trigger> = new Set([
  Trigger.MENTION, Trigger.TOPIC_WILDCARD_MENTION, Trigger.STREAM_WILDCARD_MENTION,
  Trigger.TOPIC_WILDCARD_MENTION_IN_FOLLOWED_TOPIC, Trigger.STREAM_WILDCARD_MENTION_IN_FOLLOWED_TOPIC,
]);

/** Zulip's OFFLINE_THRESHOLD_SECS: without an active presence report for this long, one is idle. */
export const OFFLINE_THRESHOLD_SECONDS = 140;

/** One recipient's subscription to the message's channel, as the rules need it. */
export interface ChannelFacts {
  muted: boolean;
  policy: number;
  /** The subscription's own settings; null follows the user's global setting. */
  push: boolean | null;
  email: boolean | null;
  wildcardMentionsNotify: boolean | null;
}

/** Everything the rules ask about one recipient of one message. */
export interface RecipientFacts {
  user: Pick<UserRecord, 'id' | 'isBot' | 'settings'>;
  senderId: number;
  direct: boolean;
  /** Mentioned by name or through a group (the `mentioned` flag). */
  mentioned: boolean;
  streamWildcardMentioned: boolean;
  topicWildcardMentioned: boolean;
  /** The recipient muted the sender. */
  senderMuted: boolean;
  /** Undefined for direct messages. */
  channel?: ChannelFacts;
  /**
   * An edit that newly mentions the recipient (Zulip's maybe_enqueue_notifications_for_message_update):
   * only the mention counts; channel and followed-topic notifications were due at sending.
   */
  mentionsOnly?: boolean;
}

/**
 * Zulip's user_allows_notifications_in_StreamTopic: the topic's visibility policy first, then
 * the channel's own setting, then the user's global one. A muted channel notifies only in
 * topics the user unmuted; a muted topic never.
 */
export function allowsInChannelTopic(muted: boolean, policy: number, channelSetting: boolean | null, globalSetting: boolean): boolean {
  if (muted && policy !== VisibilityPolicy.UNMUTED) return false;
  if (policy === VisibilityPolicy.MUTED) return false;
  return channelSetting ?? globalSetting;
}

type Medium = 'push' | 'email';

/** Zulip's trivially_should_not_notify: never the sender, never from a muted user, never a bot. */
function neverNotified(facts: RecipientFacts): boolean {
  return facts.user.isBot || facts.user.id === facts.senderId || facts.senderMuted;
}

/** The trigger a message has for one medium had the recipient been idle (Zulip's order: the most salient first). */
function triggerFor(facts: RecipientFacts, medium: Medium): Trigger | undefined {
  if (neverNotified(facts)) return undefined;
  const on = (name: string) => settingOn(facts.user, name);
  // Direct messages and mentions obey enable_offline_{push,email}_notifications (Zulip's dm_mention_*_disabled_user_ids).
  const personal = on(medium === 'push' ? 'enable_offline_push_notifications' : 'enable_offline_email_notifications');
  // Edits notify no direct message again: it was notified when sent.
  if (facts.direct) return personal && !facts.mentionsOnly ? Trigger.DIRECT_MESSAGE : undefined;
  if (facts.mentioned && personal) return Trigger.MENTION;
  const channel = facts.channel;
  if (!channel) return undefined;
  const followed = channel.policy === VisibilityPolicy.FOLLOWED;
  // Wildcard mentions follow the wildcard settings, through muting like the channel settings.
  if (personal && (facts.topicWildcardMentioned || facts.streamWildcardMentioned)) {
    const followedWildcard = followed && on('enable_followed_topic_wildcard_mentions_notify');
    const wildcard = allowsInChannelTopic(channel.muted, channel.policy, channel.wildcardMentionsNotify, on('wildcard_mentions_notify'));
    if (followedWildcard && facts.topicWildcardMentioned) return Trigger.TOPIC_WILDCARD_MENTION_IN_FOLLOWED_TOPIC;
    if (followedWildcard && facts.streamWildcardMentioned) return Trigger.STREAM_WILDCARD_MENTION_IN_FOLLOWED_TOPIC;
    if (wildcard && facts.topicWildcardMentioned) return Trigger.TOPIC_WILDCARD_MENTION;
    if (wildcard && facts.streamWildcardMentioned) return Trigger.STREAM_WILDCARD_MENTION;
  }
  if (facts.mentionsOnly) return undefined;
  if (medium === 'push') {
    if (followed && on('enable_followed_topic_push_notifications')) return Trigger.FOLLOWED_TOPIC_PUSH;
    if (allowsInChannelTopic(channel.muted, channel.policy, channel.push, on('enable_stream_push_notifications'))) return Trigger.STREAM_PUSH;
    return undefined;
  }
  if (followed && on('enable_followed_topic_email_notifications')) return Trigger.FOLLOWED_TOPIC_EMAIL;
  if (allowsInChannelTopic(channel.muted, channel.policy, channel.email, on('enable_stream_email_notifications'))) return Trigger.STREAM_EMAIL;
  return undefined;
}

/** What one recipient gets for a message: a push trigger and an email trigger, each or neither. */
export interface NotificationDecision {
  push: Trigger | undefined;
  email: Trigger | undefined;
}

/**
 * Zulip's get_push_notification_trigger and get_email_notification_trigger: an email only
 * while the recipient is idle; a push while idle, or always with enable_online_push_notifications.
 */
export function decideNotifications(facts: RecipientFacts, idle: boolean): NotificationDecision {
  const push = idle || settingOn(facts.user, 'enable_online_push_notifications') ? triggerFor(facts, 'push') : undefined;
  const email = idle ? triggerFor(facts, 'email') : undefined;
  return { push, email };
}

/** Would the message notify the recipient at all, were they idle (Zulip's is_notifiable(idle=True))? */
export function notifiableWhenIdle(facts: RecipientFacts): boolean {
  return triggerFor(facts, 'push') !== undefined || triggerFor(facts, 'email') !== undefined;
}

/** What Parley knows of a recipient's attention at the moment a message arrives. */
export interface AttentionFacts {
  /** The user holds an event queue that receives `message` events (Zulip's receiver_is_off_zulip, negated). */
  hasMessageQueue: boolean;
  /** Unix seconds of the last active presence report; null if none since the server started. */
  lastActive: number | null;
  /** Unix seconds. */
  now: number;
}

/**
 * Zulip's idle check: off Zulip (no queue receiving messages), or present in no client for
 * OFFLINE_THRESHOLD_SECONDS (get_active_presence_idle_user_ids).
 */
export function isIdle(facts: AttentionFacts): boolean {
  if (!facts.hasMessageQueue) return true;
  return facts.lastActive === null || facts.now - facts.lastActive >= OFFLINE_THRESHOLD_SECONDS;
}

/** Does an event queue with these event types receive `message` events (Zulip's accepts_messages)? */
export function queueAcceptsMessages(eventTypes: readonly string[] | null): boolean {
  return eventTypes === null || eventTypes.includes('message');
}

/**
 * Zulip's get_user_group_mentions_data for one user: the group to name in a notification when
 * the user was mentioned through groups only (not by name): the smallest such group.
 */
export function mentionedGroupFor(userId: number, personallyMentioned: boolean, groups: readonly { id: number; members: ReadonlySet<number> }[]): number | undefined {
  if (personallyMentioned) return undefined;
  let best: { id: number; size: number } | undefined;
  for (const group of groups) {
    if (!group.members.has(userId)) continue;
    if (!best || group.members.size < best.size) best = { id: group.id, size: group.members.size };
  }
  return best?.id;
}

/**
 * The batching of missed-message emails (Zulip's MissedMessageWorker): a user's first pending
 * notification sets when the batch goes, `period` seconds later; later ones join that batch.
 */
export function batchDueAt(existingDueAt: number | undefined, now: number, periodSeconds: number): number {
  return existingDueAt ?? now + periodSeconds;
}

/** The user's batching period in seconds (the setting, else Zulip's default of 120). */
export function batchingPeriodSeconds(user: Pick<UserRecord, 'settings'>): number {
  const value = user.settings.email_notifications_batching_period_seconds;
  return typeof value === 'number' && value > 0 ? value : 120;
}

/** Retry delay after `attempts` failed deliveries: exponential from 2 s, capped at 10 minutes. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(600, 2 ** Math.min(attempts, 10));
}
