/** Editing and moving messages: content edits, topic edits and moves between channels with their permissions and time limits, the edit history, the `update_message` event and the notices. */
import { notifyAfterCommit } from './notification-decision.js';
import { topicLinksOf } from '../queries/linkifiers.js';
import { checkGroupMentions } from './message-send.js';
import { planEdit, type EditRequest, type PropagateMode } from '../domain/message-edit.js';
import { mentionCandidates, mentionFlags, mentionsOf, type Mentions } from '../domain/mentions.js';
import { Flag, MENTION_BITS, type EditRecord, type MessageRecord } from '../domain/messages.js';
import { topicKey } from '../domain/topics.js';
import type { UserRecord } from '../domain/users.js';
import type { ChannelRecord } from '../domain/channel-record.js';
import type { RenderedMessage } from '../domain/markdown/index.js';
import { channelSlug, encodeHashComponent } from '../domain/channels.js';
import type { Services } from '../services.js';
import { unixSeconds } from '../services.js';
import { Transaction } from '../store/transaction.js';
import { messageAudience } from '../queries/message-audience.js';
import { newestInTopic, topicMessages } from '../queries/topics.js';
import { requireMessage } from '../queries/message-access.js';
import { notify, silentMention, topicLink } from './notifications.js';
import { channelReadable } from '../queries/channel-access.js';
import { isDelivered, markedFlags, messageFlags } from '../queries/message-state.js';
import { makeExplicit, writeFlags } from './read-state.js';
import { relinkUploads } from './attachment-links.js';

/** The messages a move takes along: this one, those after it in its topic, or the whole topic. */
async function messagesToMove(services: Services, record: MessageRecord, mode: PropagateMode): Promise<MessageRecord[]> {
  if (mode === 'change_one' || record.type !== 'stream') return [record];
  const found = await topicMessages(services, record.channelId!, record.topic!, mode === 'change_later' ? record.id : undefined);
  return found.map((message) => (message.id === record.id ? record : message));
}

/** What an edit decided before writing: the plan's changes and what a move reads of the store beforehand. */
interface Edit {
  services: Services;
  user: UserRecord;
  request: EditRequest;
  messageId: number;
  /** The edited message's channel before the edit (channel messages). */
  channel: ChannelRecord | undefined;
  content: string | undefined;
  newTopic: string | undefined;
  newChannel: ChannelRecord | undefined;
  resolution: string | undefined;
  moving: boolean;
  /** The messages the edit changes: the edited one, and those a move takes along. */
  moved: MessageRecord[];
  /** The newest message left in the old topic after a move (undefined: none left). */
  remainingNewest: number | undefined;
  /** The whole topic moved. */
  movedAll: boolean;
  /** The target topic already had messages. */
  targetHadMessages: boolean;
  /** Users whose topic read marks a move within the channel could change the meaning of (see keepTopicMarkedState). */
  topicMarked: number[];
  now: number;
}

/** What the write changes, as it goes: the edited record as it was, the rendering, the audience and the event's flags. */
interface EditWrite extends Edit {
  current: MessageRecord;
  rendered: RenderedMessage | undefined;
  targetChannel: ChannelRecord | undefined;
  targetTopic: string | undefined;
  audience: Set<number>;
  /** Flags the event carries for users whose rows this edit writes (reads in this change see the store before it). */
  eventFlags: Map<number, number>;
  detachedUploads: Record<string, unknown>[];
}

export async function editMessage(services: Services, user: UserRecord, messageId: number, request: EditRequest) {
  const edit = await prepareEdit(services, user, messageId, request);
  let detachedUploads: Record<string, unknown>[] = [];
  // Everything in the change is synchronous: no other request can change these records meanwhile.
  await services.write((tx) => {
    const write = startEditWrite(edit);
    for (const original of edit.moved) rewriteMessage(write, tx, original);
    if (edit.moving && write.current.type === 'stream') moveBookkeeping(write, tx);
    emitEditEvents(write, tx);
    if (edit.moving && write.current.type === 'stream') moveNotices(write, tx);
    detachedUploads = write.detachedUploads;
  });
  return { detached_uploads: detachedUploads };
}

/** The plan (Zulip's rules, in order) and, for a move, what it reads of the store before the write. */
async function prepareEdit(services: Services, user: UserRecord, messageId: number, request: EditRequest): Promise<Edit> {
  const { org } = services;
  const { record } = requireMessage(services, user, messageId);
  const channel = record.type === 'stream' ? org.channels.get(record.channelId!) : undefined;
  const { content, newTopic, newChannel, resolution } = planEdit(request, {
    user,
    record,
    channel,
    realm: org.realm,
    groups: org.groups,
    now: unixSeconds(services.clock),
    target: (channelId) => {
      const target = org.channels.get(channelId);
      const subscribed = (userId: number | null) => target !== undefined && userId !== null && services.subscriptions.isSubscribed(userId, target.id);
      return { channel: target, subscribed: subscribed(user.id), ownerSubscribed: subscribed(user.botOwnerId) };
    },
  });
  const moving = newTopic !== undefined || newChannel !== undefined;
  const moved = moving ? await messagesToMove(services, record, request.propagateMode) : [record];
  const movedIds = new Set(moved.map((m) => m.id));
  const inChannel = moving && record.type === 'stream';
  const remainingNewest = inChannel ? await newestInTopic(services, record.channelId!, record.topic!, movedIds) : undefined;
  // What the notices say depends on whether the whole topic moved, and whether it joined messages already there.
  const targetHadMessages = inChannel ? (await newestInTopic(services, (newChannel ?? channel)!.id, newTopic ?? record.topic!, movedIds)) !== undefined : false;
  const topicMarked = inChannel && newChannel === undefined && newTopic !== undefined
    ? [...new Set([
      ...(await services.readMarks.topicMarkUsers(record.channelId!, topicKey(record.topic!))),
      ...(await services.readMarks.topicMarkUsers(record.channelId!, topicKey(newTopic))),
    ])]
    : [];
  return {
    services, user, request, messageId: record.id, channel, content, newTopic, newChannel, resolution, moving, moved, remainingNewest,
    movedAll: request.propagateMode === 'change_all' || remainingNewest === undefined,
    targetHadMessages, topicMarked, now: unixSeconds(services.clock),
  };
}

/** The edited message as it is now, its new rendering (only groups the edit newly mentions need the editor's permission, as in Zulip). */
function startEditWrite(edit: Edit): EditWrite {
  const { services, user, content } = edit;
  const current = services.messages.get(edit.messageId)!;
  const rendered = content !== undefined ? services.render(content, user) : undefined;
  if (rendered) {
    const before = new Set([...current.renderedContent.matchAll(/class="user-group-mention" data-user-group-id="(\d+)"/g)].map((m) => Number(m[1])));
    checkGroupMentions(services, user, [...rendered.mentionedGroupIds].filter((id) => !before.has(id)));
  }
  return {
    ...edit,
    current,
    rendered,
    targetChannel: edit.newChannel ?? edit.channel,
    targetTopic: edit.newTopic ?? current.topic,
    audience: new Set(messageAudience(services, current)),
    eventFlags: new Map(),
    detachedUploads: [],
  };
}

/** One message of the edit: new content, topic or channel, and its edit history entry. */
function rewriteMessage(write: EditWrite, tx: Transaction, original: MessageRecord): void {
  const { services, user, current, content, rendered, moving, newTopic, newChannel } = write;
  const { messages, org } = services;
  const message = original.id === current.id ? current : (messages.get(original.id) ?? original);
  const entry: EditRecord = { userId: user.id, timestamp: write.now };
  let updated: MessageRecord = message;
  // First, so that a content edit's rows below (written over these) keep what it needs.
  if (moving && message.type === 'stream' && !newChannel) keepTopicMarkedState(services, tx, message, write.targetTopic!, write.topicMarked);
  if (message.id === current.id && content !== undefined && rendered) {
    entry.prevContent = message.content;
    entry.prevRenderedContent = message.renderedContent;
    updated = { ...updated, content, renderedContent: rendered.html };
    updated = rementioned(services, tx, updated, mentionsOf(rendered, org.groups), services.attention.alertWords().alerted(content), new Set(write.topicMarked), user.id);
    write.detachedUploads = relinkUploads(services, tx, message.id, user, rendered.html);
  }
  if (moving && message.type === 'stream') {
    if (newTopic !== undefined) {
      entry.prevTopic = message.topic;
      entry.topic = newTopic;
    }
    if (newChannel) {
      entry.prevStream = message.channelId;
      entry.stream = newChannel.id;
    }
    messages.unindex(message, topicKey(message.topic!), tx);
    if (newChannel) updated = enterChannel(write, tx, updated, newChannel);
    updated = { ...updated, topic: write.targetTopic, channelId: write.targetChannel!.id, recipientId: write.targetChannel!.recipientId };
    messages.index(updated, topicKey(write.targetTopic!), tx);
  }
  messages.save({ ...updated, editHistory: [entry, ...message.editHistory] }, tx);
}

/** A message moving to another channel: every holder gets a row, and the new channel's subscribers get it, already read. */
function enterChannel(write: EditWrite, tx: Transaction, record: MessageRecord, newChannel: ChannelRecord): MessageRecord {
  const { services, current, eventFlags } = write;
  // Reception in the old channel no longer says who has it: every holder gets a row.
  const explicit = makeExplicit(services, tx, record);
  const updated = explicit.record;
  if (updated.id === current.id) for (const [userId, flags] of explicit.flags) eventFlags.set(userId, flags);
  const userIds = new Set(updated.userIds);
  for (const userId of services.subscriptions.subscribersOf(newChannel.id)) {
    if (userIds.has(userId)) continue;
    userIds.add(userId);
    services.messages.setFlags(userId, record.id, undefined, Flag.read, tx);
    if (updated.id === current.id) eventFlags.set(userId, Flag.read);
  }
  return { ...updated, userIds: [...userIds] };
}

/** The topics' bookkeeping after a move, the new channel's audience and first message. */
function moveBookkeeping(write: EditWrite, tx: Transaction): void {
  const { services, current, newChannel, moved } = write;
  moveTopicBookkeeping(services, tx, current.channelId!, current.topic!, write.targetChannel!.id, write.targetTopic!, moved.map((m) => m.id), write.remainingNewest);
  if (!newChannel) return;
  for (const id of services.subscriptions.subscribersOf(newChannel.id)) write.audience.add(id);
  if (newChannel.firstMessageId === null || newChannel.firstMessageId > current.id) {
    services.org.channels.save({ ...newChannel, firstMessageId: Math.min(...moved.map((m) => m.id)) }, tx);
  }
}

/** Zulip's `update_message` event for what changed. */
function updateMessageEvent(write: EditWrite): Record<string, unknown> {
  const { current, content, rendered, newChannel, newTopic } = write;
  const event: Record<string, unknown> = {
    type: 'update_message',
    user_id: write.user.id,
    edit_timestamp: write.now,
    message_id: current.id,
    message_ids: write.moved.map((m) => m.id).sort((a, b) => a - b),
    rendering_only: false,
  };
  if (current.type === 'stream') {
    event.stream_name = write.channel?.name;
    event.stream_id = current.channelId;
  }
  if (content !== undefined && rendered) {
    Object.assign(event, {
      orig_content: current.content,
      orig_rendered_content: current.renderedContent,
      content,
      rendered_content: rendered.html,
      is_me_message: content.startsWith('/me '),
    });
  }
  if (write.moving) {
    event.propagate_mode = write.request.propagateMode;
    event.orig_subject = current.topic;
    if (newChannel) event.new_stream_id = newChannel.id;
    if (newTopic !== undefined) {
      event.subject = newTopic;
      event.topic_links = topicLinksOf(write.services, newTopic);
    }
  }
  return event;
}

/**
 * The event to everyone who has the message, with their flags. As Zulip: whoever cannot read the
 * new channel loses the messages, and is told only that they were deleted, never where they went.
 */
function emitEditEvents(write: EditWrite, tx: Transaction): void {
  const { services, current, newChannel, audience } = write;
  const event = updateMessageEvent(write);
  const losing = newChannel ? [...audience].filter((userId) => !mayStillRead(services, userId, newChannel)) : [];
  for (const userId of losing) audience.delete(userId);
  const edited = services.messages.get(current.id) ?? current;
  // Asked only for those who hold a queue (when the event is logged, in this transaction): a
  // channel's audience can be thousands, and each one's flags cost a lookup of their row.
  const flags = (userId: number) => write.eventFlags.get(userId) ?? messageFlags(services, userId, edited) ?? Flag.read;
  tx.emit(event, [...audience], { flags });
  if (losing.length > 0) {
    const ids = write.moved.map((m) => m.id).sort((a, b) => a - b);
    tx.emit({ type: 'delete_message', message_ids: ids, message_type: 'stream', stream_id: current.channelId, topic: current.topic }, losing);
  }
}

/** The notification bot's notices of a move or a resolution; read for the person who caused them, as Zulip marks them. */
function moveNotices(write: EditWrite, tx: Transaction): void {
  const { services, user, current, request } = write;
  const { org } = services;
  const targetChannel = write.targetChannel!;
  const targetTopic = write.targetTopic!;
  const where = { channel: targetChannel, topic: targetTopic };
  if (write.resolution && !write.newChannel) {
    notify(services, tx, where, `${silentMention(user)} has marked this topic as ${write.resolution}.`, user);
    return;
  }
  const oldChannel = org.channels.get(current.channelId!)!;
  const from = topicLink(oldChannel, current.topic!);
  const to = topicLink(targetChannel, targetTopic);
  const count = write.moved.length;
  const by = silentMention(user);
  if (request.notifyNewThread) {
    const link = messageUrl(org.url, targetChannel, targetTopic, current.id);
    const text = write.movedAll && !write.targetHadMessages
      ? `This topic was moved here from ${from} by ${by}.`
      : count === 1 ? `[A message](${link}) was moved here from ${from} by ${by}.` : `${count} messages were moved here from ${from} by ${by}.`;
    notify(services, tx, where, text, user);
  }
  if (request.notifyOldThread) {
    const text = write.movedAll
      ? `This topic was moved to ${to} by ${by}.`
      : count === 1 ? `A message was moved from this topic to ${to} by ${by}.` : `${count} messages were moved from this topic to ${to} by ${by}.`;
    notify(services, tx, { channel: oldChannel, topic: current.topic! }, text, user);
  }
}

/**
 * Recomputes the mention and alert-word flags of an edited message for everyone who has it and
 * whom the old or the new content flags; returns the record with any new row holders listed.
 */
function rementioned(services: Services, tx: Transaction, record: MessageRecord, mentions: Mentions, alerted: ReadonlySet<number>, keepRows: ReadonlySet<number>, editorId: number): MessageRecord {
  const { messages } = services;
  const participants = record.type === 'stream' ? new Set(messages.topic(record.channelId!, topicKey(record.topic!), tx)?.participants ?? []) : undefined;
  const candidates = new Set(record.userIds);
  for (const userId of mentionCandidates(mentions, participants ?? [], messageAudience(services, record))) candidates.add(userId);
  for (const userId of alerted) candidates.add(userId);
  let updated = record;
  const newlyMentioned = new Map<number, number>();
  for (const userId of candidates) {
    const flags = messageFlags(services, userId, record);
    if (flags === undefined) continue;
    const next = (flags & ~(MENTION_BITS | Flag.has_alert_word))
      | mentionFlags(userId, mentions, participants === undefined || participants.has(userId))
      | (alerted.has(userId) ? Flag.has_alert_word : 0);
    if (next === flags) continue;
    if (!(flags & MENTION_BITS) && next & MENTION_BITS) newlyMentioned.set(userId, next);
    // (`keepRows`: users whose row a topic move in this edit needs, see keepTopicMarkedState.)
    updated = writeFlags(services, tx, userId, updated, messages.row(userId, record.id), next, keepRows.has(userId));
  }
  // Those the edit newly mentions are notified as Zulip does (never twice for one mention).
  if (newlyMentioned.size > 0) {
    const topic = record.type === 'stream' ? topicKey(record.topic!) : undefined;
    notifyAfterCommit(services, tx.afterCommit, { record: updated, flags: newlyMentioned, mentionedUserIds: mentions.users, mentionedGroupIds: new Set(), topicKey: topic, edit: { editorId } });
  }
  return updated;
}

/**
 * A message moving to another topic of its channel leaves one topic read mark for another: for
 * the users with a mark on either topic who have the message without a row, a row keeps the
 * read state it had. (Other users' state comes from the channel mark, which the move keeps.)
 */
function keepTopicMarkedState(services: Services, tx: Transaction, message: MessageRecord, newTopic: string, users: readonly number[]): void {
  const moved = { ...message, topic: newTopic };
  for (const userId of users) {
    if (!isDelivered(services, userId, message) || services.messages.row(userId, message.id) !== undefined) continue;
    const before = markedFlags(services, userId, message);
    if (before !== markedFlags(services, userId, moved)) services.messages.setFlags(userId, message.id, undefined, before, tx);
  }
}

/** Keeps the topics' records (name, newest id, participants) right after messages moved between topics. */
function moveTopicBookkeeping(
  services: Services,
  tx: Transaction,
  fromChannel: number,
  fromTopic: string,
  toChannel: number,
  toTopic: string,
  movedIds: number[],
  remainingNewest: number | undefined,
): void {
  const { messages } = services;
  const fromKey = topicKey(fromTopic);
  const toKey = topicKey(toTopic);
  const source = messages.topic(fromChannel, fromKey, tx);
  const target = fromChannel === toChannel && fromKey === toKey ? source : messages.topic(toChannel, toKey, tx);
  const maxMoved = Math.max(...movedIds);
  messages.saveTopic(toChannel, toKey, {
    name: toTopic,
    maxId: Math.max(target?.maxId ?? 0, maxMoved),
    participants: [...new Set([...(target?.participants ?? []), ...(source?.participants ?? [])])],
  }, tx);
  if (fromChannel === toChannel && fromKey === toKey) return;
  if (remainingNewest === undefined || !source) messages.saveTopic(fromChannel, fromKey, undefined, tx);
  else messages.saveTopic(fromChannel, fromKey, { ...source, maxId: remainingNewest }, tx);
}

/** Zulip's stream_message_url: a link to a message in its (new) conversation. */
function messageUrl(realmUrl: string, channel: ChannelRecord, topic: string, messageId: number): string {
  return `${realmUrl}/#narrow/channel/${channelSlug(channel.id, channel.name)}/topic/${encodeHashComponent(topic)}/near/${messageId}`;
}

/** Whether a user who held a moved message may read it in the channel it moved to. */
function mayStillRead(services: Services, userId: number, channel: ChannelRecord): boolean {
  const user = services.org.users.get(userId);
  return user !== undefined && channelReadable(services, user, channel);
}
