/** Editing and moving messages: content edits, topic edits and moves between channels with their permissions and time limits, the edit history, the `update_message` event and the notices. */
import { createHash } from 'node:crypto';
import { settingIncludes } from '../domain/groups.js';
import { ApiError, badRequest } from '../domain/errors.js';
import { Flag, MENTION_BITS, type EditRecord, type MessageRecord } from '../domain/messages.js';
import { EMPTY_TOPIC_DISPLAY_NAME, realmGroupSetting, realmSetting } from '../domain/realm.js';
import { isAdmin, isModerator } from '../domain/roles.js';
import { normalizeContent, normalizeTopic, RESOLVED_TOPIC_PREFIX, topicKey, topicResolutionChange } from '../domain/topics.js';
import type { UserRecord } from '../domain/users.js';
import { LIMITS } from '../domain/versions.js';
import type { ChannelRecord } from '../domain/channel-record.js';
import { channelSlug, encodeHashComponent } from '../domain/channels.js';
import type { Services } from '../services.js';
import { unixSeconds } from '../services.js';
import { Transaction } from '../store/transaction.js';
import { accessChannelById } from '../queries/channel-access.js';
import { messageAudience } from '../queries/message-audience.js';
import { newestInTopic, topicMessages } from '../queries/topics.js';
import { requireMessage } from '../queries/message-access.js';
import { checkMaySendToChannel } from '../queries/channel-access.js';
import { notify, silentMention, topicLink } from './notifications.js';

/** Zulip allows edits a little past the limit, for the time it takes to type them. */
const EDIT_GRACE_SECONDS = 20;

type PropagateMode = 'change_one' | 'change_later' | 'change_all';

export interface EditRequest {
  content?: string;
  topic?: string;
  streamId?: number;
  propagateMode: PropagateMode;
  notifyOldThread: boolean;
  notifyNewThread: boolean;
  prevContentSha256?: string;
}

function inGroupSetting(services: Services, user: UserRecord, setting: string): boolean {
  return settingIncludes(user.id, realmGroupSetting(services.org.realm, setting), services.org.groups);
}

function withinLimit(services: Services, sentAt: number, limit: number | null): boolean {
  return limit === null || unixSeconds(services.clock) - sentAt <= limit + EDIT_GRACE_SECONDS;
}

/** The messages a move takes along: this one, those after it in its topic, or the whole topic. */
async function messagesToMove(services: Services, record: MessageRecord, mode: PropagateMode): Promise<MessageRecord[]> {
  if (mode === 'change_one' || record.type !== 'stream') return [record];
  const found = await topicMessages(services, record.channelId!, record.topic!, mode === 'change_later' ? record.id : undefined);
  return found.map((message) => (message.id === record.id ? record : message));
}

export async function editMessage(services: Services, user: UserRecord, messageId: number, request: EditRequest) {
  const { org, messages } = services;
  const realm = org.realm;
  const { record } = requireMessage(services, user, messageId);
  const channel = record.type === 'stream' ? org.channels.get(record.channelId!) : undefined;
  if (channel?.isArchived) throw badRequest('Invalid message(s)');

  if (request.content !== undefined) {
    if (!realmSetting(realm, 'allow_message_editing')) throw badRequest('Your organization has turned off message editing');
    if (record.senderId !== user.id) throw badRequest("You don't have permission to edit this message");
    if (!withinLimit(services, record.timestamp, realmSetting(realm, 'message_content_edit_limit_seconds'))) {
      throw badRequest('The time limit for editing this message has passed');
    }
  }
  let newTopic: string | undefined;
  if (request.topic !== undefined) {
    newTopic = normalizeTopic(request.topic, { maxLength: LIMITS.maxTopicLength, emptyTopicDisplayName: EMPTY_TOPIC_DISPLAY_NAME });
    // As Zulip: the current topic (a direct message's is '') is no change.
    if (newTopic === (record.topic ?? '')) newTopic = undefined;
  }
  let newChannel: ChannelRecord | undefined;
  if (request.streamId !== undefined && record.type === 'stream' && request.streamId === record.channelId) request.streamId = undefined;
  if (request.content === undefined && newTopic === undefined && request.streamId === undefined) throw badRequest('Nothing to change');
  if (record.type === 'private' && request.streamId !== undefined) throw badRequest('Direct messages cannot be moved to channels.');
  if (record.type === 'private' && newTopic !== undefined) throw badRequest('Direct messages cannot have topics.');
  if (request.propagateMode !== 'change_one' && newTopic === undefined && request.streamId === undefined) {
    throw badRequest('Invalid propagate_mode without topic edit');
  }
  if (newTopic !== undefined && (newTopic === RESOLVED_TOPIC_PREFIX.trim() || newTopic === RESOLVED_TOPIC_PREFIX + EMPTY_TOPIC_DISPLAY_NAME)) {
    throw badRequest('General chat cannot be marked as resolved');
  }
  if (request.streamId !== undefined && request.content !== undefined) throw badRequest('Cannot change message content while changing channel');
  if (request.prevContentSha256 !== undefined && request.prevContentSha256 !== createHash('sha256').update(record.content).digest('hex')) {
    throw new ApiError('EXPECTATION_MISMATCH', "'prev_content_sha256' value does not match the expected value.", 400, { field_name: 'prev_content_sha256' });
  }
  let content: string | undefined;
  if (request.content !== undefined) content = normalizeContent(request.content.trim() === '' ? '(deleted)' : request.content, LIMITS.maxMessageLength);

  const resolution = newTopic !== undefined ? topicResolutionChange(record.topic!, newTopic) : undefined;
  if (newTopic !== undefined) {
    if (resolution) {
      if (!inGroupSetting(services, user, 'can_resolve_topics_group')) throw badRequest("You don't have permission to resolve topics in this channel.");
    } else {
      if (!isAdmin(user.role) && !inGroupSetting(services, user, 'can_move_messages_between_topics_group')) {
        throw badRequest("You don't have permission to edit this message");
      }
      if (!isModerator(user.role) && !withinLimit(services, record.timestamp, realmSetting(realm, 'move_messages_within_stream_limit_seconds'))) {
        throw badRequest("The time limit for editing this message's topic has passed.");
      }
    }
  }
  if (request.streamId !== undefined) {
    if (!isAdmin(user.role) && !inGroupSetting(services, user, 'can_move_messages_between_channels_group')) {
      throw badRequest("You don't have permission to move this message");
    }
    newChannel = accessChannelById(services, user, request.streamId);
    checkMaySendToChannel(services, user, newChannel);
    if (!isModerator(user.role) && !withinLimit(services, record.timestamp, realmSetting(realm, 'move_messages_between_streams_limit_seconds'))) {
      throw badRequest("The time limit for editing this message's channel has passed");
    }
  }

  const moving = newTopic !== undefined || newChannel !== undefined;
  const moved = moving ? await messagesToMove(services, record, request.propagateMode) : [record];
  const movedIds = new Set(moved.map((m) => m.id));
  const remainingNewest = moving && record.type === 'stream' ? await newestInTopic(services, record.channelId!, record.topic!, movedIds) : undefined;
  // What the notices say depends on whether the whole topic moved, and whether it joined messages already there.
  const movedAll = request.propagateMode === 'change_all' || remainingNewest === undefined;
  const targetHadMessages = moving && record.type === 'stream'
    ? (await newestInTopic(services, (newChannel ?? channel)!.id, newTopic ?? record.topic!, movedIds)) !== undefined
    : false;
  // Everything below is synchronous: no other request can change these records meanwhile.
  const current = services.messages.get(record.id)!;
  const now = unixSeconds(services.clock);
  await services.write((tx) => {
    const rendered = content !== undefined ? services.render(content) : undefined;
    const oldChannelId = current.channelId;
    const oldTopic = current.topic;
    const targetChannel = newChannel ?? channel;
    const targetTopic = newTopic ?? oldTopic;
    const audience = new Set(messageAudience(services, current));

    for (const original of moved) {
      const message = original.id === current.id ? current : (messages.get(original.id) ?? original);
      const entry: EditRecord = { userId: user.id, timestamp: now };
      let updated: MessageRecord = message;
      if (message.id === current.id && content !== undefined && rendered) {
        entry.prevContent = message.content;
        entry.prevRenderedContent = message.renderedContent;
        updated = { ...updated, content, renderedContent: rendered.html };
        const mentioned = new Set(rendered.mentionedUserIds);
        for (const userId of message.userIds) {
          const flags = messages.flags(userId, message.id);
          if (flags === undefined) continue;
          let next = flags & ~(Flag.mentioned | Flag.stream_wildcard_mentioned | Flag.topic_wildcard_mentioned);
          if (mentioned.has(userId)) next |= Flag.mentioned;
          if (rendered.streamWildcard) next |= Flag.stream_wildcard_mentioned;
          if (rendered.topicWildcard) next |= Flag.topic_wildcard_mentioned;
          if ((next & MENTION_BITS) !== (flags & MENTION_BITS)) messages.setFlags(userId, message.id, flags, next, tx);
        }
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
        updated = { ...updated, topic: targetTopic, channelId: targetChannel!.id, recipientId: targetChannel!.recipientId };
        if (newChannel) {
          // Subscribers of the new channel get the message, already read.
          const userIds = new Set(updated.userIds);
          for (const userId of services.subscriptions.subscribersOf(newChannel.id)) {
            if (userIds.has(userId)) continue;
            userIds.add(userId);
            messages.setFlags(userId, message.id, undefined, Flag.read, tx);
          }
          updated = { ...updated, userIds: [...userIds] };
        }
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
        event.topic_links = [];
      }
    }
    const flags = new Map<number, number>();
    for (const userId of audience) flags.set(userId, messages.flags(userId, current.id) ?? Flag.read);
    tx.emit(event, [...audience], { flags });

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
  return { detached_uploads: [] };
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
