/**
 * Writing a new message: the record, its place in every range, each recipient's flags, the
 * topic's bookkeeping, automatic topic visibility, and the message event for every recipient.
 * Used by POST /messages and by the notification bot (moderation reports).
 */
import { checkWidgetContent, widgetFromContent, widgetSubmessageContent, type WidgetStart } from '../domain/widgets.js';
import { relinkUploads } from './attachment-links.js';
import { mentionCandidates, mentionFlags, mentionsOf, type Mentions } from '../domain/mentions.js';
import { mayMentionGroup } from '../domain/group-permissions.js';
import { mayUseWildcardMentions, refusalError } from '../domain/permissions.js';
import { VisibilityPolicy } from '../domain/topic-visibility.js';
import { automaticPolicy, followsWhenMentioned } from '../domain/topic-follow.js';
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
import { notifyAfterCommit } from './notification-decision.js';

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

export interface WrittenMessage {
  record: MessageRecord;
  /** Set when sending followed or unmuted the topic for the sender. */
  automaticNewVisibilityPolicy?: number;
}

/** Who a new message reaches and how, before it is written. */
interface Arrival {
  id: number;
  now: number;
  mentions: Mentions;
  /** Those who have it read on arrival. */
  readers: Set<number>;
  /** Recipients whose alert words it contains. */
  alerted: ReadonlySet<number>;
}

/** The message written: its record, its topic's key, its audience and each row's flags. */
interface Placed {
  record: MessageRecord;
  key: string | undefined;
  /** The message starts its topic. */
  initiated: boolean;
  audience: Audience;
  /** Each row written: the user's flags. */
  rows: Map<number, number>;
}

export function writeMessage(services: Services, tx: Transaction, out: OutgoingMessage): WrittenMessage {
  const arrival = arrivalOf(services, tx, out);
  const { destination } = out;
  const placed = destination.type === 'stream' ? placeInChannel(services, tx, out, destination, arrival) : placeInConversation(services, tx, out, destination, arrival);
  const { record } = placed;
  if (out.widget) {
    const submessageId = services.counters.nextRealmId(services.org.id, 'submessage', tx);
    record.submessages = [{ id: submessageId, senderId: out.sender.id, msgType: 'widget', content: widgetSubmessageContent(out.widget) }];
  }
  services.messages.save(record, tx);
  services.messages.index(record, placed.key, tx);
  relinkUploads(services, tx, record.id, out.sender, record.renderedContent);
  emitMessage(services, tx, out, placed, arrival.readers);
  // Who is notified is decided once the message is durable, outside the send's cost.
  notifyAfterCommit(services, tx.afterCommit, { record, flags: placed.rows, mentionedUserIds: new Set(out.rendered.mentionedUserIds), mentionedGroupIds: new Set(out.rendered.mentionedGroupIds), topicKey: placed.key });
  const written: WrittenMessage = { record };
  if (destination.type === 'stream') {
    const policy = automaticVisibility(services, tx, out.sender, destination, placed, arrival.mentions.users);
    if (policy !== undefined) written.automaticNewVisibilityPolicy = policy;
  }
  return written;
}

function arrivalOf(services: Services, tx: Transaction, out: OutgoingMessage): Arrival {
  const { sender } = out;
  const readers = new Set<number>();
  if (out.readBySender) readers.add(sender.id);
  if (out.readBy !== undefined) readers.add(out.readBy);
  // Those who muted the sender have it read on arrival (Zulip's muted users).
  for (const userId of services.attention.mutersOf(sender.id)) readers.add(userId);
  return {
    id: services.counters.nextServerId('message', tx),
    now: unixSeconds(services.clock),
    mentions: mentionsOf(out.rendered, services.org.groups),
    readers,
    // One pass over the content for every user's alert words; recipients among them get the flag.
    alerted: services.attention.alertWords().alerted(out.content),
  };
}

/**
 * A channel message: subscribers receive it through their reception intervals and read it by
 * their read marks, so rows only for those it mentions or alerts, and readers whose mark cannot move.
 */
function placeInChannel(services: Services, tx: Transaction, out: OutgoingMessage, { channel, topic }: { channel: ChannelRecord; topic: string }, arrival: Arrival): Placed {
  const { org, messages } = services;
  const { id, mentions, readers } = arrival;
  const key = topicKey(topic);
  const existing = messages.topic(channel.id, key, tx);
  const topicParticipants = new Set(existing?.participants ?? []);
  topicParticipants.add(out.sender.id);
  messages.saveTopic(channel.id, key, { name: topic, maxId: id, participants: [...topicParticipants] }, tx);
  const subscribers = services.subscriptions.subscribersOf(channel.id);
  const previousNewest = messages.newestInChannel(channel.id);
  const rows = new Map<number, number>();
  for (const userId of mentionCandidates(mentions, topicParticipants, subscribers)) {
    if (!subscribers.has(userId)) continue;
    const flags = mentionFlags(userId, mentions, topicParticipants.has(userId));
    if (flags !== 0) rows.set(userId, flags);
  }
  for (const userId of arrival.alerted) if (subscribers.has(userId)) rows.set(userId, (rows.get(userId) ?? 0) | Flag.has_alert_word);
  const listed = [...rows.keys()];
  // Whoever reads it on arrival: their read mark moves onto it when nothing lies between, else a row says read.
  for (const userId of readers) {
    if (!subscribers.has(userId)) continue;
    if (readByMoving(services, userId, channel.id, previousNewest)) services.readMarks.setMark(userId, channel.id, id, tx);
    else if (!rows.has(userId)) rows.set(userId, Flag.read);
    if (rows.has(userId)) rows.set(userId, rows.get(userId)! | Flag.read);
  }
  const record: MessageRecord = {
    id, senderId: out.sender.id, type: 'stream', channelId: channel.id, topic, recipientId: channel.recipientId,
    content: out.content, renderedContent: out.rendered.html, timestamp: arrival.now, client: out.client,
    userIds: listed, reactions: [], editHistory: [],
  };
  for (const [userId, flags] of rows) messages.setFlags(userId, id, undefined, flags, tx);
  if (channel.firstMessageId === null) org.channels.save({ ...channel, firstMessageId: id }, tx);
  const audience: Audience = { members: subscribers, accepts: (userId) => org.users.get(userId)?.isActive === true };
  return { record, key, initiated: existing === undefined, audience, rows };
}

/** A direct message keeps a row per participant: audiences are small. */
function placeInConversation(services: Services, tx: Transaction, out: OutgoingMessage, { participants }: { participants: UserRecord[] }, arrival: Arrival): Placed {
  const { org } = services;
  const { sender } = out;
  const conversation = conversationKey(participants.map((u) => u.id));
  const dmUserIds = conversation.split(',').map(Number);
  let recipientId: number;
  if (dmUserIds.length <= 2) {
    // 1:1 (or self) conversations are addressed to the other person's personal recipient.
    const other = dmUserIds.find((userId) => userId !== sender.id) ?? sender.id;
    recipientId = org.users.get(other)!.recipientId;
  } else {
    recipientId = org.conversations.recipientFor(conversation, services.counters, tx);
  }
  const record: MessageRecord = {
    id: arrival.id, senderId: sender.id, type: 'private', recipientId, dmUserIds,
    content: out.content, renderedContent: out.rendered.html, timestamp: arrival.now, client: out.client,
    userIds: dmUserIds, reactions: [], editHistory: [],
  };
  const rows = new Map<number, number>();
  const { mentions, readers, alerted } = arrival;
  for (const userId of dmUserIds) {
    const flags = Flag.is_private | mentionFlags(userId, mentions, true) | (readers.has(userId) ? Flag.read : 0) | (alerted.has(userId) ? Flag.has_alert_word : 0);
    services.messages.setFlags(userId, record.id, undefined, flags, tx);
    rows.set(userId, flags);
  }
  return { record, key: undefined, initiated: false, audience: dmUserIds, rows };
}

/** The `message` event to its audience, each with their flags; the sending queue gets its local id back. */
function emitMessage(services: Services, tx: Transaction, out: OutgoingMessage, { record, audience, rows }: Placed, readers: ReadonlySet<number>): void {
  const { sender } = out;
  const message = formatMessage(services, record, sender.id, 0, EVENT_MESSAGE_FORMAT);
  delete message.flags;
  const internal: MessageEventInternals = {
    raw_content: record.content,
    gravatar_public: sender.isBot || sender.emailAddressVisibility === EmailVisibility.EVERYONE,
  };
  const event = { type: 'message', message, internal };
  tx.emit(event, audience, {
    flags: record.type === 'stream' ? (userId) => rows.get(userId) ?? (readers.has(userId) ? Flag.read : 0) : rows,
    forQueue: out.queueId && out.localId !== undefined ? { queueId: out.queueId, fields: { local_message_id: out.localId } } : undefined,
  });
}

/** The sender's topic followed or unmuted by their settings, and mentioned subscribers following it; returns the sender's new policy. */
function automaticVisibility(
  services: Services,
  tx: Transaction,
  sender: UserRecord,
  { channel, topic }: { channel: ChannelRecord; topic: string },
  { key, initiated }: Placed,
  mentioned: Iterable<number>,
): number | undefined {
  const { subscriptions, org } = services;
  const current = subscriptions.topicPolicy(sender.id, channel.id, key!);
  const channelMuted = subscriptions.subscription(sender.id, channel.id)?.isMuted ?? false;
  const policy = automaticPolicy(sender, { current, channelMuted, initiated });
  if (policy !== undefined) setTopicPolicy(services, tx, sender.id, channel.id, topic, policy);
  // Mentioned people follow the topic (Zulip's automatically_follow_topics_where_mentioned).
  for (const userId of mentioned) {
    const user = org.users.get(userId);
    if (!user || user.isBot || userId === sender.id || !subscriptions.isSubscribed(userId, channel.id)) continue;
    if (!followsWhenMentioned(user, subscriptions.topicPolicy(userId, channel.id, key!))) continue;
    setTopicPolicy(services, tx, userId, channel.id, topic, VisibilityPolicy.FOLLOWED);
  }
  return policy;
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
  /** The content already rendered by `services.render` as the sender, on the state of now (a scheduled message's kept render). */
  rendered?: RenderedMessage;
}

/** Zulip's check_user_group_mention_allowed: every group mentioned (not silently) by `sender` allows it. */
export function checkGroupMentions(services: Services, sender: UserRecord, groupIds: Iterable<number>): void {
  const { org } = services;
  for (const groupId of groupIds) {
    const group = org.groups.get(groupId);
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
  const rendered = request.rendered ?? services.render(content, sender);
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
