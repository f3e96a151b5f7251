/**
 * Writing a new message: the record, its place in every range, each recipient's flags, the
 * topic's bookkeeping, automatic topic visibility, and the message event for every recipient.
 * Used by POST /messages and by the notification bot (moderation reports).
 */
import { checkWidgetContent, widgetFromContent, widgetSubmessageContent, type WidgetStart } from '../domain/widgets.js';
import { relinkUploads } from './attachment-links.js';
import { mentionCandidates, mentionFlags, mentionsOf } from '../domain/mentions.js';
import { mayMentionGroup } from '../domain/group-permissions.js';
import { mayUseWildcardMentions, refusalError } from '../domain/permissions.js';
import { VisibilityPolicy } from '../domain/topic-visibility.js';
import type { ChannelRecord } from '../domain/channel-record.js';
import type { RenderedMessage } from '../domain/markdown/index.js';
import { conversationKey, Flag, type MessageRecord } from '../domain/messages.js';
import { topicKey } from '../domain/topics.js';
import { apiEmail, EmailVisibility, type UserRecord } from '../domain/users.js';
import type { MessageEventInternals } from '../events/variants.js';
import type { Services } from '../services.js';
import { unixSeconds } from '../services.js';
import type { Audience, Transaction } from '../store/transaction.js';
import { readByMoving } from './read-state.js';
import { formatMessage, type MessageFormat } from '../queries/message-format.js';
import { ApiError, badRequest } from '../domain/errors.js';
import { EMPTY_TOPIC_DISPLAY_NAME, realmSetting } from '../domain/realm.js';
import { normalizeContent, normalizeTopic } from '../domain/topics.js';
import { LIMITS } from '../domain/versions.js';
import { channelFromTo, usersFromTo } from '../queries/addressees.js';
import { checkMaySendToChannel } from '../queries/channel-access.js';
import { setTopicPolicy } from './user-topics.js';

export type Destination =
  | { type: 'stream'; channel: ChannelRecord; topic: string }
  | { type: 'private'; participants: UserRecord[] };

export interface OutgoingMessage {
  sender: UserRecord;
  client: string;
  readBySender: boolean;
  /** Someone else who has it read from the start (whoever caused a notification bot's notice). */
  readBy?: number;
  /** Normalized Markdown. */
  content: string;
  rendered: RenderedMessage;
  destination: Destination;
  /** Local echo: the sending client's queue and its id for the message. */
  queueId?: string;
  localId?: string;
  /** The widget the message starts (a `/poll`, a `/todo`, a bot's zform): its first submessage. */
  widget?: WidgetStart;
}

/** The format message events are stored in; queues derive their own variant from it. */
export const EVENT_MESSAGE_FORMAT: MessageFormat = { applyMarkdown: true, clientGravatar: false, allowEmptyTopicName: true };

/** Zulip's automatic visibility settings (ON_INITIATION to follow, ON_SEND to unmute). */
const FOLLOW_ON_PARTICIPATION = 1;
const FOLLOW_ON_SEND = 2;
const FOLLOW_ON_INITIATION = 3;

function userSetting(user: UserRecord, key: string, fallback: number | boolean): number | boolean {
  return (user.settings[key] as number | boolean | undefined) ?? fallback;
}

/** The policy sending gives the sender's topic, per the user's settings, or undefined for no change. */
function automaticPolicy(services: Services, sender: UserRecord, channelId: number, key: string, initiated: boolean): number | undefined {
  if (sender.isBot) return undefined;
  const follow = userSetting(sender, 'automatically_follow_topics_policy', FOLLOW_ON_INITIATION) as number;
  const unmute = userSetting(sender, 'automatically_unmute_topics_in_muted_streams_policy', FOLLOW_ON_SEND) as number;
  const current = services.subscriptions.topicPolicy(sender.id, channelId, key);
  if (current === VisibilityPolicy.FOLLOWED) return undefined;
  const channelMuted = services.subscriptions.subscription(sender.id, channelId)?.isMuted ?? false;
  let candidate: number | undefined;
  if (follow === FOLLOW_ON_PARTICIPATION || follow === FOLLOW_ON_SEND) candidate = VisibilityPolicy.FOLLOWED;
  else if (channelMuted && (unmute === FOLLOW_ON_PARTICIPATION || unmute === FOLLOW_ON_SEND)) candidate = VisibilityPolicy.UNMUTED;
  if (current !== VisibilityPolicy.INHERIT) return candidate === current ? undefined : candidate;
  if (candidate === undefined && initiated) {
    if (follow === FOLLOW_ON_INITIATION) candidate = VisibilityPolicy.FOLLOWED;
    else if (channelMuted && unmute === FOLLOW_ON_INITIATION) candidate = VisibilityPolicy.UNMUTED;
  }
  return candidate;
}

/**
 * The policy taking part in a topic otherwise than by sending (a submessage: Zulip's
 * do_add_submessage) gives the user's topic: only for settings "on participation", and only
 * ever raising it (a followed topic stays followed); undefined for no change.
 */
export function participationPolicy(services: Services, user: UserRecord, channelId: number, key: string): number | undefined {
  if (user.isBot) return undefined;
  const follow = userSetting(user, 'automatically_follow_topics_policy', FOLLOW_ON_INITIATION);
  const unmute = userSetting(user, 'automatically_unmute_topics_in_muted_streams_policy', FOLLOW_ON_SEND);
  if (follow !== FOLLOW_ON_PARTICIPATION && unmute !== FOLLOW_ON_PARTICIPATION) return undefined;
  const subscription = services.subscriptions.subscription(user.id, channelId);
  if (!subscription) return undefined;
  let candidate: number | undefined;
  if (follow === FOLLOW_ON_PARTICIPATION) candidate = VisibilityPolicy.FOLLOWED;
  else if (subscription.isMuted && unmute === FOLLOW_ON_PARTICIPATION) candidate = VisibilityPolicy.UNMUTED;
  const current = services.subscriptions.topicPolicy(user.id, channelId, key);
  if (candidate === undefined || candidate === current || current === VisibilityPolicy.FOLLOWED) return undefined;
  return candidate;
}

export interface WrittenMessage {
  record: MessageRecord;
  /** Set when sending followed or unmuted the topic for the sender. */
  automaticNewVisibilityPolicy?: number;
}

export function writeMessage(services: Services, tx: Transaction, out: OutgoingMessage): WrittenMessage {
  const { org, messages } = services;
  const id = services.counters.nextServerId('message', tx);
  const now = unixSeconds(services.clock);
  const { sender, destination, rendered } = out;
  const mentions = mentionsOf(rendered, org.groups);
  const mentioned = mentions.users;
  const readers = new Set<number>();
  if (out.readBySender) readers.add(sender.id);
  if (out.readBy !== undefined) readers.add(out.readBy);
  // Those who muted the sender have it read on arrival (Zulip's muted users).
  for (const userId of services.attention.mutersOf(sender.id)) readers.add(userId);
  // One pass over the content for every user's alert words; recipients among them get the flag.
  const alerted = services.attention.alertWords().alerted(out.content);

  let record: MessageRecord;
  let key: string | undefined;
  let initiated = false;
  let audience: Audience;
  /** Each row written: the user's flags. */
  const rows = new Map<number, number>();
  if (destination.type === 'stream') {
    const { channel, topic } = destination;
    key = topicKey(topic);
    const existing = messages.topic(channel.id, key);
    initiated = existing === undefined;
    const topicParticipants = new Set(existing?.participants ?? []);
    topicParticipants.add(sender.id);
    messages.saveTopic(channel.id, key, { name: topic, maxId: id, participants: [...topicParticipants] }, tx);
    const subscribers = services.subscriptions.subscribersOf(channel.id);
    const previousNewest = messages.newestInChannel(channel.id);
    // Subscribers receive it through their reception intervals and read it by their read marks:
    // rows only for those it mentions, nothing per subscriber.
    for (const userId of mentionCandidates(mentions, topicParticipants, subscribers)) {
      if (!subscribers.has(userId)) continue;
      const flags = mentionFlags(userId, mentions, topicParticipants.has(userId));
      if (flags !== 0) rows.set(userId, flags);
    }
    for (const userId of alerted) if (subscribers.has(userId)) rows.set(userId, (rows.get(userId) ?? 0) | Flag.has_alert_word);
    const listed = [...rows.keys()];
    // Whoever reads it on arrival: their read mark moves onto it when nothing lies between, else a row says read.
    for (const userId of readers) {
      if (!subscribers.has(userId)) continue;
      if (readByMoving(services, userId, channel.id, previousNewest)) services.readMarks.setMark(userId, channel.id, id, tx);
      else if (!rows.has(userId)) rows.set(userId, Flag.read);
      if (rows.has(userId)) rows.set(userId, rows.get(userId)! | Flag.read);
    }
    record = {
      id, senderId: sender.id, type: 'stream', channelId: channel.id, topic, recipientId: channel.recipientId,
      content: out.content, renderedContent: rendered.html, timestamp: now, client: out.client,
      userIds: listed, reactions: [], editHistory: [],
    };
    for (const [userId, flags] of rows) messages.setFlags(userId, id, undefined, flags, tx);
    if (channel.firstMessageId === null) org.channels.save({ ...channel, firstMessageId: id }, tx);
    audience = { members: subscribers, accepts: (userId) => org.users.get(userId)?.isActive === true };
  } else {
    const participants = destination.participants.map((u) => u.id);
    const conversation = conversationKey(participants);
    const dmUserIds = conversation.split(',').map(Number);
    let recipientId: number;
    if (dmUserIds.length <= 2) {
      // 1:1 (or self) conversations are addressed to the other person's personal recipient.
      const other = dmUserIds.find((userId) => userId !== sender.id) ?? sender.id;
      recipientId = org.users.get(other)!.recipientId;
    } else {
      recipientId = org.conversations.recipientFor(conversation, services.counters, tx);
    }
    record = {
      id, senderId: sender.id, type: 'private', recipientId, dmUserIds,
      content: out.content, renderedContent: rendered.html, timestamp: now, client: out.client,
      userIds: dmUserIds, reactions: [], editHistory: [],
    };
    // Direct messages keep a row per participant: audiences are small.
    for (const userId of dmUserIds) {
      const flags = Flag.is_private | mentionFlags(userId, mentions, true) | (readers.has(userId) ? Flag.read : 0) | (alerted.has(userId) ? Flag.has_alert_word : 0);
      messages.setFlags(userId, id, undefined, flags, tx);
      rows.set(userId, flags);
    }
    audience = dmUserIds;
  }
  if (out.widget) {
    const submessageId = services.counters.nextRealmId(org.id, 'submessage', tx);
    record.submessages = [{ id: submessageId, senderId: sender.id, msgType: 'widget', content: widgetSubmessageContent(out.widget) }];
  }
  messages.save(record, tx);
  messages.index(record, key, tx);
  relinkUploads(services, tx, record.id, sender, record.renderedContent);

  const message = formatMessage(services, record, sender.id, 0, EVENT_MESSAGE_FORMAT);
  delete message.flags;
  const internal: MessageEventInternals = {
    raw_content: record.content,
    gravatar_public: sender.isBot || sender.emailAddressVisibility === EmailVisibility.EVERYONE,
  };
  const event = { type: 'message', message, internal };
  const channelMessage = destination.type === 'stream';
  tx.emit(event, audience, {
    flags: channelMessage ? (userId) => rows.get(userId) ?? (readers.has(userId) ? Flag.read : 0) : rows,
    forQueue: out.queueId && out.localId !== undefined ? { queueId: out.queueId, fields: { local_message_id: out.localId } } : undefined,
  });

  const written: WrittenMessage = { record };
  if (destination.type === 'stream') {
    const { channel, topic } = destination;
    const policy = automaticPolicy(services, sender, channel.id, key!, initiated);
    if (policy !== undefined) {
      setTopicPolicy(services, tx, sender.id, channel.id, topic, policy);
      written.automaticNewVisibilityPolicy = policy;
    }
    // Mentioned people follow the topic (Zulip's automatically_follow_topics_where_mentioned).
    for (const userId of mentioned) {
      const user = org.users.get(userId);
      if (!user || user.isBot || userId === sender.id || !services.subscriptions.isSubscribed(userId, channel.id)) continue;
      if (!userSetting(user, 'automatically_follow_topics_where_mentioned', true)) continue;
      const current = services.subscriptions.topicPolicy(userId, channel.id, key!);
      if (current === VisibilityPolicy.MUTED || current === VisibilityPolicy.FOLLOWED) continue;
      setTopicPolicy(services, tx, userId, channel.id, topic, VisibilityPolicy.FOLLOWED);
    }
  }
  return written;
}


/** Clients used by people (not scripts): their own messages start read. */
const HUMAN_CLIENTS = new Set(['zulipandroid', 'zulipios', 'zulipdesktop', 'zulipmobile', 'zulipelectron', 'zulipterminal', 'snipe', 'website', 'ios', 'android']);

export function defaultReadBySender(client: string): boolean {
  const name = client.toLowerCase();
  return HUMAN_CLIENTS.has(name) || name.includes('desktop app');
}

export interface SendRequest {
  type: string;
  to: unknown;
  content: string;
  topic?: string;
  queueId?: string;
  localId?: string;
  readBySender?: boolean;
  /** A bot's `widget_content` (JSON text), checked as Zulip does. */
  widgetContent?: string;
}

/** Zulip's check_user_group_mention_allowed: every group mentioned (not silently) by `sender` allows it. */
export function checkGroupMentions(services: Services, sender: UserRecord, groupIds: Iterable<number>): void {
  const { org } = services;
  for (const groupId of groupIds) {
    const group = org.groups.group(groupId);
    const refusal = group && mayMentionGroup(sender, group, org.realm, org.groups);
    if (refusal) throw refusalError(refusal);
  }
}

/**
 * Validates a message from `sender` against the state of now and builds it, or throws Zulip's
 * refusal. Synchronous, so that a scheduled delivery can check again inside its own write.
 */
export function prepareMessage(services: Services, sender: UserRecord, client: string, request: SendRequest): OutgoingMessage {
  const { org } = services;
  const content = normalizeContent(request.content, LIMITS.maxMessageLength);
  let destination: Destination;
  const rendered = services.render(content, sender);
  if (request.type === 'stream' || request.type === 'channel') {
    const channel = channelFromTo(services, request.to, sender);
    if (request.topic === undefined) throw badRequest('Missing topic');
    const topic = normalizeTopic(request.topic, { maxLength: LIMITS.maxTopicLength, emptyTopicDisplayName: EMPTY_TOPIC_DISPLAY_NAME });
    if (topic === '' && (realmSetting(org.realm, 'mandatory_topics') || channel.topicsPolicy === 'disable_empty_topic')) {
      throw new ApiError('BAD_REQUEST', `Sending messages to the ${EMPTY_TOPIC_DISPLAY_NAME} is not allowed in this channel.`, 400, {
        empty_topic_display_name: EMPTY_TOPIC_DISPLAY_NAME,
      });
    }
    checkMaySendToChannel(services, sender, channel);
    const mentionRefusal = mayUseWildcardMentions(sender, org.realm, org.groups, {
      streamWildcard: rendered.streamWildcard,
      topicWildcard: rendered.topicWildcard,
      channelSubscriberCount: rendered.streamWildcard ? services.subscriptions.subscribersOf(channel.id).size : 0,
      topicParticipants: rendered.topicWildcard ? (services.messages.topic(channel.id, topicKey(topic))?.participants ?? []) : [],
    });
    if (mentionRefusal) throw refusalError(mentionRefusal);
    destination = { type: 'stream', channel, topic };
  } else {
    const recipients = usersFromTo(services, request.to);
    if (recipients.length === 0) throw badRequest('Message must have recipients');
    for (const user of recipients) {
      // The address the API shows for the user (Zulip's `user_profile.email`): the real one only
      // where the user lets everyone see it, so that the refusal reveals nothing.
      if (!user.isActive) throw badRequest(`'${apiEmail(user, services.org.host)}' is no longer using Zulip.`);
    }
    const participants = recipients.some((u) => u.id === sender.id) ? recipients : [...recipients, sender];
    destination = { type: 'private', participants };
  }
  checkGroupMentions(services, sender, rendered.mentionedGroupIds);
  const widget = request.widgetContent !== undefined ? checkWidgetContent(request.widgetContent) : widgetFromContent(content);
  return {
    widget,
    sender,
    client,
    readBySender: request.readBySender ?? defaultReadBySender(client),
    content,
    rendered,
    destination,
    queueId: request.queueId,
    localId: request.localId,
  };
}

/** Validates and writes a message from `sender`; resolves once it is durable. */
export async function sendMessage(services: Services, sender: UserRecord, client: string, request: SendRequest) {
  const out = prepareMessage(services, sender, client, request);
  const written = await services.write((tx) => writeMessage(services, tx, out));
  const response: Record<string, unknown> = { id: written.record.id };
  if (written.automaticNewVisibilityPolicy !== undefined) response.automatic_new_visibility_policy = written.automaticNewVisibilityPolicy;
  return response;
}
