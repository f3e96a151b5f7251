/** Editing and moving messages: content edits, topic edits and moves between channels with their permissions and time limits, the edit history, the `update_message` event and the notices. */
import { topicLinksOf } from '../queries/linkifiers.js';
import { checkGroupMentions } from './message-send.js';
import { planEdit, type EditRequest, type PropagateMode } from '../domain/message-edit.js';
import { mentionCandidates, mentionFlags, mentionsOf, type Mentions } from '../domain/mentions.js';
import { Flag, MENTION_BITS, type EditRecord, type MessageRecord } from '../domain/messages.js';
import { topicKey } from '../domain/topics.js';
import type { UserRecord } from '../domain/users.js';
import type { ChannelRecord } from '../domain/channel-record.js';
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

export async function editMessage(services: Services, user: UserRecord, messageId: number, request: EditRequest) {
  const { org, messages } = services;
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
  const remainingNewest = moving && record.type === 'stream' ? await newestInTopic(services, record.channelId!, record.topic!, movedIds) : undefined;
  // What the notices say depends on whether the whole topic moved, and whether it joined messages already there.
  const movedAll = request.propagateMode === 'change_all' || remainingNewest === undefined;
  const targetHadMessages = moving && record.type === 'stream'
    ? (await newestInTopic(services, (newChannel ?? channel)!.id, newTopic ?? record.topic!, movedIds)) !== undefined
    : false;
  // Users whose topic read marks a move within the channel could change the meaning of (see keepTopicMarkedState).
  const topicMarked = moving && record.type === 'stream' && newChannel === undefined && newTopic !== undefined
    ? [...new Set([
      ...(await services.readMarks.topicMarkUsers(record.channelId!, topicKey(record.topic!))),
      ...(await services.readMarks.topicMarkUsers(record.channelId!, topicKey(newTopic))),
    ])]
    : [];
  // Everything below is synchronous: no other request can change these records meanwhile.
  const current = services.messages.get(record.id)!;
  const now = unixSeconds(services.clock);
  let detachedUploads: Record<string, unknown>[] = [];
  await services.write((tx) => {
    const rendered = content !== undefined ? services.render(content, user) : undefined;
    // Only groups the edit newly mentions need the editor's permission, as in Zulip.
    if (rendered) {
      const before = new Set([...current.renderedContent.matchAll(/class="user-group-mention" data-user-group-id="(\d+)"/g)].map((m) => Number(m[1])));
      checkGroupMentions(services, user, [...rendered.mentionedGroupIds].filter((id) => !before.has(id)));
    }
    const oldChannelId = current.channelId;
    const oldTopic = current.topic;
    const targetChannel = newChannel ?? channel;
    const targetTopic = newTopic ?? oldTopic;
    const audience = new Set(messageAudience(services, current));
    // Flags the event carries for users whose rows this edit writes (reads in this change see the store before it).
    const eventFlags = new Map<number, number>();

    for (const original of moved) {
      const message = original.id === current.id ? current : (messages.get(original.id) ?? original);
      const entry: EditRecord = { userId: user.id, timestamp: now };
      let updated: MessageRecord = message;
      // First, so that a content edit's rows below (written over these) keep what it needs.
      if (moving && message.type === 'stream' && !newChannel) keepTopicMarkedState(services, tx, message, targetTopic!, topicMarked);
      if (message.id === current.id && content !== undefined && rendered) {
        entry.prevContent = message.content;
        entry.prevRenderedContent = message.renderedContent;
        updated = { ...updated, content, renderedContent: rendered.html };
        updated = rementioned(services, tx, updated, mentionsOf(rendered, org.groups), services.attention.alertWords().alerted(content), new Set(topicMarked));
        detachedUploads = relinkUploads(services, tx, message.id, user, rendered.html);
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
        if (newChannel) {
          // Reception in the old channel no longer says who has it: every holder gets a row.
          const explicit = makeExplicit(services, tx, updated);
          updated = explicit.record;
          if (updated.id === current.id) for (const [userId, flags] of explicit.flags) eventFlags.set(userId, flags);
          // Subscribers of the new channel get the message, already read.
          const userIds = new Set(updated.userIds);
          for (const userId of services.subscriptions.subscribersOf(newChannel.id)) {
            if (userIds.has(userId)) continue;
            userIds.add(userId);
            messages.setFlags(userId, message.id, undefined, Flag.read, tx);
            if (updated.id === current.id) eventFlags.set(userId, Flag.read);
          }
          updated = { ...updated, userIds: [...userIds] };
        }
        updated = { ...updated, topic: targetTopic, channelId: targetChannel!.id, recipientId: targetChannel!.recipientId };
        messages.index(updated, topicKey(targetTopic!), tx);
      }
      updated = { ...updated, editHistory: [entry, ...message.editHistory] };
      messages.save(updated, tx);
    }

    if (moving && current.type === 'stream') {
      moveTopicBookkeeping(services, tx, oldChannelId!, oldTopic!, targetChannel!.id, targetTopic!, moved.map((m) => m.id), remainingNewest);
      if (newChannel) {
        for (const id of services.subscriptions.subscribersOf(newChannel.id)) audience.add(id);
        if (newChannel.firstMessageId === null || newChannel.firstMessageId > current.id) org.channels.save({ ...newChannel, firstMessageId: Math.min(...moved.map((m) => m.id)) }, tx);
      }
    }

    const event: Record<string, unknown> = {
      type: 'update_message',
      user_id: user.id,
      edit_timestamp: now,
      message_id: current.id,
      message_ids: moved.map((m) => m.id).sort((a, b) => a - b),
      rendering_only: false,
    };
    if (current.type === 'stream') {
      event.stream_name = channel?.name;
      event.stream_id = oldChannelId;
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
    if (moving) {
      event.propagate_mode = request.propagateMode;
      event.orig_subject = oldTopic;
      if (newChannel) event.new_stream_id = newChannel.id;
      if (newTopic !== undefined) {
        event.subject = newTopic;
        event.topic_links = topicLinksOf(services, newTopic);
      }
    }
    // As Zulip: whoever cannot read the new channel loses the messages, and is told only that
    // they were deleted, never where they went.
    const losing = newChannel ? [...audience].filter((userId) => !mayStillRead(services, userId, newChannel)) : [];
    for (const userId of losing) audience.delete(userId);
    const flags = new Map<number, number>();
    const edited = messages.get(current.id) ?? current;
    for (const userId of audience) flags.set(userId, eventFlags.get(userId) ?? messageFlags(services, userId, edited) ?? Flag.read);
    tx.emit(event, [...audience], { flags });
    if (losing.length > 0) {
      const ids = moved.map((m) => m.id).sort((a, b) => a - b);
      tx.emit({ type: 'delete_message', message_ids: ids, message_type: 'stream', stream_id: oldChannelId, topic: oldTopic }, losing);
    }

    if (moving && current.type === 'stream') {
      const where = { channel: targetChannel!, topic: targetTopic! };
      // Notices are read for the person who caused them, as Zulip marks them.
      if (resolution && !newChannel) {
        notify(services, tx, where, `${silentMention(user)} has marked this topic as ${resolution}.`, user);
      } else {
        const from = topicLink(org.channels.get(oldChannelId!)!, oldTopic!);
        const to = topicLink(targetChannel!, targetTopic!);
        const count = moved.length;
        if (request.notifyNewThread) {
          const link = messageUrl(org.url, targetChannel!, targetTopic!, current.id);
          const text = movedAll && !targetHadMessages
            ? `This topic was moved here from ${from} by ${silentMention(user)}.`
            : count === 1 ? `[A message](${link}) was moved here from ${from} by ${silentMention(user)}.` : `${count} messages were moved here from ${from} by ${silentMention(user)}.`;
          notify(services, tx, where, text, user);
        }
        if (request.notifyOldThread) {
          const text = movedAll
            ? `This topic was moved to ${to} by ${silentMention(user)}.`
            : count === 1 ? `A message was moved from this topic to ${to} by ${silentMention(user)}.` : `${count} messages were moved from this topic to ${to} by ${silentMention(user)}.`;
          notify(services, tx, { channel: org.channels.get(oldChannelId!)!, topic: oldTopic! }, text, user);
        }
      }
    }
  });
  return { detached_uploads: detachedUploads };
}

/**
 * Recomputes the mention and alert-word flags of an edited message for everyone who has it and
 * whom the old or the new content flags; returns the record with any new row holders listed.
 */
function rementioned(services: Services, tx: Transaction, record: MessageRecord, mentions: Mentions, alerted: ReadonlySet<number>, keepRows: ReadonlySet<number>): MessageRecord {
  const { messages } = services;
  const participants = record.type === 'stream' ? new Set(messages.topic(record.channelId!, topicKey(record.topic!))?.participants ?? []) : undefined;
  const candidates = new Set(record.userIds);
  for (const userId of mentionCandidates(mentions, participants ?? [], messageAudience(services, record))) candidates.add(userId);
  for (const userId of alerted) candidates.add(userId);
  let updated = record;
  for (const userId of candidates) {
    const flags = messageFlags(services, userId, record);
    if (flags === undefined) continue;
    const next = (flags & ~(MENTION_BITS | Flag.has_alert_word))
      | mentionFlags(userId, mentions, participants === undefined || participants.has(userId))
      | (alerted.has(userId) ? Flag.has_alert_word : 0);
    if (next === flags) continue;
    // (`keepRows`: users whose row a topic move in this edit needs, see keepTopicMarkedState.)
    updated = writeFlags(services, tx, userId, updated, messages.row(userId, record.id), next, keepRows.has(userId));
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
  const source = messages.topic(fromChannel, fromKey);
  const target = fromChannel === toChannel && fromKey === toKey ? source : messages.topic(toChannel, toKey);
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
