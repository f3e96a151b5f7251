/** Unit tests of who is notified (domain/notification-rules.ts), case by case against Zulip's notification_data.py. */
import { test } from 'tap';
import {
  allowsInChannelTopic,
  batchDueAt,
  batchingPeriodSeconds,
  decideNotifications,
  isIdle,
  mentionedGroupFor,
  notifiableWhenIdle,
  OFFLINE_THRESHOLD_SECONDS,
  queueAcceptsMessages,
  retryDelaySeconds,
  Trigger,
  type ChannelFacts,
  type RecipientFacts,
} from '../../src/domain/notification-rules.js';
import { VisibilityPolicy } from '../../src/domain/topic-visibility.js';

const SENDER = 1;
const ME = 2;
const channel = (over: Partial<ChannelFacts> = {}): ChannelFacts => ({ muted: false, policy: VisibilityPolicy.INHERIT, push: null, email: null, wildcardMentionsNotify: null, ...over });
const facts = (over: Partial<RecipientFacts> & { settings?: Record<string, unknown> } = {}): RecipientFacts => ({
  user: { id: ME, isBot: false, settings: over.settings ?? {} },
  senderId: SENDER,
  direct: false,
  mentioned: false,
  streamWildcardMentioned: false,
  topicWildcardMentioned: false,
  senderMuted: false,
  ...over,
});

test('direct messages notify by push and email while idle', async (t) => {
  t.same(decideNotifications(facts({ direct: true }), true), { push: Trigger.DIRECT_MESSAGE, email: Trigger.DIRECT_MESSAGE });
  t.same(decideNotifications(facts({ direct: true, settings: { enable_offline_email_notifications: false } }), true), { push: Trigger.DIRECT_MESSAGE, email: undefined });
  t.same(decideNotifications(facts({ direct: true, settings: { enable_offline_push_notifications: false } }), true), { push: undefined, email: Trigger.DIRECT_MESSAGE });
});

test('while active: no email; a push only with enable_online_push_notifications (on by default)', async (t) => {
  t.same(decideNotifications(facts({ direct: true }), false), { push: Trigger.DIRECT_MESSAGE, email: undefined });
  t.same(decideNotifications(facts({ direct: true, settings: { enable_online_push_notifications: false } }), false), { push: undefined, email: undefined });
});

test('never the sender, never from a muted user, never a bot', async (t) => {
  t.same(decideNotifications(facts({ direct: true, senderId: ME }), true), { push: undefined, email: undefined });
  t.same(decideNotifications(facts({ direct: true, senderMuted: true }), true), { push: undefined, email: undefined });
  t.same(decideNotifications({ ...facts({ direct: true }), user: { id: ME, isBot: true, settings: {} } }, true), { push: undefined, email: undefined });
});

test('personal mentions notify even in muted topics and channels; wildcard mentions obey muting', async (t) => {
  t.equal(decideNotifications(facts({ mentioned: true, channel: channel({ policy: VisibilityPolicy.MUTED }) }), true).push, Trigger.MENTION);
  t.equal(decideNotifications(facts({ mentioned: true, channel: channel({ muted: true }) }), true).email, Trigger.MENTION);
  t.same(decideNotifications(facts({ streamWildcardMentioned: true, channel: channel({ policy: VisibilityPolicy.MUTED }) }), true), { push: undefined, email: undefined });
  t.same(decideNotifications(facts({ streamWildcardMentioned: true, channel: channel({ muted: true }) }), true), { push: undefined, email: undefined });
  t.equal(decideNotifications(facts({ streamWildcardMentioned: true, channel: channel({ muted: true, policy: VisibilityPolicy.UNMUTED }) }), true).push, Trigger.STREAM_WILDCARD_MENTION);
  t.equal(decideNotifications(facts({ topicWildcardMentioned: true, channel: channel() }), true).push, Trigger.TOPIC_WILDCARD_MENTION);
});

test('wildcard mentions follow wildcard_mentions_notify, the channel setting first', async (t) => {
  t.same(decideNotifications(facts({ streamWildcardMentioned: true, channel: channel(), settings: { wildcard_mentions_notify: false } }), true), { push: undefined, email: undefined });
  t.equal(decideNotifications(facts({ streamWildcardMentioned: true, channel: channel({ wildcardMentionsNotify: true }), settings: { wildcard_mentions_notify: false } }), true).push, Trigger.STREAM_WILDCARD_MENTION);
  t.same(decideNotifications(facts({ streamWildcardMentioned: true, channel: channel({ wildcardMentionsNotify: false }) }), true), { push: undefined, email: undefined });
});

test('followed topics: their own triggers and settings, even in a muted channel', async (t) => {
  const followed = channel({ policy: VisibilityPolicy.FOLLOWED });
  t.same(decideNotifications(facts({ channel: followed }), true), { push: Trigger.FOLLOWED_TOPIC_PUSH, email: Trigger.FOLLOWED_TOPIC_EMAIL });
  t.same(decideNotifications(facts({ channel: { ...followed, muted: true } }), true), { push: Trigger.FOLLOWED_TOPIC_PUSH, email: Trigger.FOLLOWED_TOPIC_EMAIL });
  t.same(decideNotifications(facts({ channel: followed, settings: { enable_followed_topic_push_notifications: false, enable_followed_topic_email_notifications: false } }), true), { push: undefined, email: undefined });
  t.equal(decideNotifications(facts({ channel: followed, streamWildcardMentioned: true }), true).push, Trigger.STREAM_WILDCARD_MENTION_IN_FOLLOWED_TOPIC);
  t.equal(decideNotifications(facts({ channel: followed, topicWildcardMentioned: true }), true).push, Trigger.TOPIC_WILDCARD_MENTION_IN_FOLLOWED_TOPIC);
  t.equal(decideNotifications(facts({ channel: followed, mentioned: true }), true).push, Trigger.MENTION, 'a mention is the most salient');
});

test('channel notifications: the subscription setting over the global one, through muting', async (t) => {
  t.same(decideNotifications(facts({ channel: channel() }), true), { push: undefined, email: undefined }, 'both off by default');
  t.same(decideNotifications(facts({ channel: channel(), settings: { enable_stream_push_notifications: true } }), true), { push: Trigger.STREAM_PUSH, email: undefined });
  t.same(decideNotifications(facts({ channel: channel({ email: true }) }), true), { push: undefined, email: Trigger.STREAM_EMAIL });
  t.same(decideNotifications(facts({ channel: channel({ push: false }), settings: { enable_stream_push_notifications: true } }), true).push, undefined);
  t.same(decideNotifications(facts({ channel: channel({ push: true, muted: true }) }), true).push, undefined);
  t.same(decideNotifications(facts({ channel: channel({ push: true, policy: VisibilityPolicy.MUTED }) }), true).push, undefined);
});

test('an edit newly mentioning someone notifies the mention only (never a DM again, never the channel settings)', async (t) => {
  t.equal(decideNotifications(facts({ mentioned: true, mentionsOnly: true, channel: channel() }), true).push, Trigger.MENTION);
  t.same(decideNotifications(facts({ direct: true, mentionsOnly: true }), true), { push: undefined, email: undefined });
  t.same(decideNotifications(facts({ mentionsOnly: true, channel: channel({ push: true, policy: VisibilityPolicy.FOLLOWED }) }), true), { push: undefined, email: undefined });
  t.equal(decideNotifications(facts({ streamWildcardMentioned: true, mentionsOnly: true, channel: channel() }), true).push, Trigger.STREAM_WILDCARD_MENTION);
});

test('allowsInChannelTopic is Zulip\'s hierarchy', async (t) => {
  t.equal(allowsInChannelTopic(true, VisibilityPolicy.UNMUTED, null, true), true);
  t.equal(allowsInChannelTopic(true, VisibilityPolicy.INHERIT, true, true), false);
  t.equal(allowsInChannelTopic(false, VisibilityPolicy.MUTED, true, true), false);
  t.equal(allowsInChannelTopic(false, VisibilityPolicy.INHERIT, false, true), false);
  t.equal(allowsInChannelTopic(false, VisibilityPolicy.INHERIT, null, true), true);
});

test('notifiable when idle: the cheap filter before the idle check', async (t) => {
  t.equal(notifiableWhenIdle(facts({ channel: channel() })), false);
  t.equal(notifiableWhenIdle(facts({ direct: true })), true);
  t.equal(notifiableWhenIdle(facts({ direct: true, settings: { enable_offline_push_notifications: false, enable_offline_email_notifications: false } })), false);
});

test('idle: no queue receiving messages, or no active presence for 140 s', async (t) => {
  t.equal(isIdle({ hasMessageQueue: false, lastActive: 1000, now: 1000 }), true);
  t.equal(isIdle({ hasMessageQueue: true, lastActive: 1000, now: 1000 + OFFLINE_THRESHOLD_SECONDS - 1 }), false);
  t.equal(isIdle({ hasMessageQueue: true, lastActive: 1000, now: 1000 + OFFLINE_THRESHOLD_SECONDS }), true);
  t.equal(isIdle({ hasMessageQueue: true, lastActive: null, now: 1000 }), true);
  t.equal(queueAcceptsMessages(null), true);
  t.equal(queueAcceptsMessages(['message', 'presence']), true);
  t.equal(queueAcceptsMessages(['presence']), false);
});

test('group mentions name the smallest group, unless mentioned by name', async (t) => {
  const groups = [{ id: 10, members: new Set([ME, 3, 4]) }, { id: 11, members: new Set([ME, 3]) }, { id: 12, members: new Set([5]) }];
  t.equal(mentionedGroupFor(ME, false, groups), 11);
  t.equal(mentionedGroupFor(ME, true, groups), undefined);
  t.equal(mentionedGroupFor(6, false, groups), undefined);
});

test('batching: the first message sets the batch\'s time, later ones join it', async (t) => {
  t.equal(batchDueAt(undefined, 1000, 120), 1120);
  t.equal(batchDueAt(1120, 1100, 120), 1120);
  t.equal(batchingPeriodSeconds({ settings: {} }), 120);
  t.equal(batchingPeriodSeconds({ settings: { email_notifications_batching_period_seconds: 5 } }), 5);
});

test('retries back off exponentially, capped', async (t) => {
  t.same([1, 2, 3, 4].map(retryDelaySeconds), [2, 4, 8, 16]);
  t.equal(retryDelaySeconds(50), 600);
});
