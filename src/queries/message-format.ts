/** The message objects of the API (GET /messages, message events), built from records for one viewer. */
import { submessageObject } from '../domain/widgets.js';
import { avatarUrlFor } from '../domain/avatar.js';
import { flagList, isMeMessage, type EditRecord, type MessageRecord } from '../domain/messages.js';
import { EMPTY_TOPIC_DISPLAY_NAME, realmSetting } from '../domain/realm.js';
import { topicResolutionChange } from '../domain/topics.js';
import { apiEmail, EmailVisibility, type UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import { topicLinksOf } from './linkifiers.js';

export interface MessageFormat {
  applyMarkdown: boolean;
  clientGravatar: boolean;
  allowEmptyTopicName: boolean;
}

export const DEFAULT_FORMAT: MessageFormat = { applyMarkdown: true, clientGravatar: true, allowEmptyTopicName: false };

const UNKNOWN_USER = 'Unknown user';

/** Times of the last content edit and the last move (a resolve/unresolve is neither), from the history. */
export function editTimes(history: readonly EditRecord[]): { lastEdit?: number; lastMoved?: number } {
  let lastEdit: number | undefined;
  let lastMoved: number | undefined;
  for (const entry of history) {
    if (entry.prevContent !== undefined) lastEdit = Math.max(lastEdit ?? 0, entry.timestamp);
    const topicMove = entry.prevTopic !== undefined && entry.topic !== undefined && topicResolutionChange(entry.prevTopic, entry.topic) === undefined;
    if (entry.prevStream !== undefined || topicMove) lastMoved = Math.max(lastMoved ?? 0, entry.timestamp);
  }
  return { lastEdit, lastMoved };
}

function senderFields(services: Services, senderId: number, clientGravatar: boolean) {
  const sender = services.org.users.get(senderId);
  if (!sender) return { sender_email: `user${senderId}@${services.org.host}`, sender_full_name: UNKNOWN_USER, avatar_url: null };
  return {
    sender_email: apiEmail(sender, services.org.host),
    sender_full_name: sender.fullName,
    avatar_url: avatarUrlFor(sender, {
      clientGravatar,
      emailIsPublic: sender.isBot || sender.emailAddressVisibility === EmailVisibility.EVERYONE,
      realmUrl: services.org.url,
    }),
  };
}

/**
 * A channel's name, or every participant of a direct message: a group's by id, and the two
 * people of a 1:1 conversation by email, as Zulip orders them.
 */
function displayRecipient(services: Services, record: MessageRecord): unknown {
  if (record.type === 'stream') return services.org.channels.get(record.channelId!)?.name ?? '';
  const people = record.dmUserIds!.map((id) => {
    const user = services.org.users.get(id);
    return {
      id,
      email: user ? apiEmail(user, services.org.host) : `user${id}@${services.org.host}`,
      full_name: user?.fullName ?? UNKNOWN_USER,
      is_mirror_dummy: false,
    };
  });
  if (people.length === 2) people.sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0));
  return people;
}

function historyEntries(history: readonly EditRecord[], allowEmptyTopicName: boolean): Record<string, unknown>[] {
  const topic = (value: string) => (value === '' && !allowEmptyTopicName ? EMPTY_TOPIC_DISPLAY_NAME : value);
  return history.map((entry) => {
    const out: Record<string, unknown> = { user_id: entry.userId, timestamp: entry.timestamp };
    if (entry.prevContent !== undefined) {
      out.prev_content = entry.prevContent;
      out.prev_rendered_content = entry.prevRenderedContent;
    }
    if (entry.prevTopic !== undefined) {
      out.prev_topic = topic(entry.prevTopic);
      out.topic = topic(entry.topic ?? '');
    }
    if (entry.prevStream !== undefined) {
      out.prev_stream = entry.prevStream;
      out.stream = entry.stream;
    }
    return out;
  });
}

/** The `subject` a message shows: its topic (the empty one under its display name, unless allowed), '' for direct messages. */
export function subjectOf(record: MessageRecord, format: MessageFormat): string {
  if (record.type !== 'stream') return '';
  return record.topic === '' && !format.allowEmptyTopicName ? EMPTY_TOPIC_DISPLAY_NAME : record.topic!;
}

/**
 * The message as `viewer` sees it: flags are the viewer's (a bitfield; see messages.ts);
 * `recipient_id` of a 1:1 conversation is the other participant's, as Zulip reports it.
 */
export function formatMessage(services: Services, record: MessageRecord, viewerId: number, flags: number, format: MessageFormat): Record<string, unknown> {
  const message = messageObject(services, record, viewerId, format);
  message.flags = flagList(flags);
  return message;
}

/** The message object without `flags`: the same for every viewer but a 1:1 conversation's recipient (see message-json.ts). */
export function messageObject(services: Services, record: MessageRecord, viewerId: number, format: MessageFormat): Record<string, unknown> {
  const message: Record<string, unknown> = {
    id: record.id,
    sender_id: record.senderId,
    content: format.applyMarkdown ? record.renderedContent : record.content,
    recipient_id: recipientIdFor(services, record, viewerId),
    timestamp: record.timestamp,
    client: record.client,
    subject: subjectOf(record, format),
    topic_links: record.type === 'stream' ? topicLinksOf(services, record.topic!) : [],
    is_me_message: isMeMessage(record.content),
    reactions: record.reactions.map((r) => ({ emoji_name: r.emojiName, emoji_code: r.emojiCode, reaction_type: r.reactionType, user_id: r.userId })),
    submessages: (record.submessages ?? []).map((s) => submessageObject(record.id, s)),
    ...senderFields(services, record.senderId, format.clientGravatar),
    sender_realm_str: services.org.realm.subdomain,
    display_recipient: displayRecipient(services, record),
    type: record.type,
    content_type: format.applyMarkdown ? 'text/html' : 'text/x-markdown',
  };
  if (record.type === 'stream') message.stream_id = record.channelId;
  if (record.editHistory.length > 0) {
    const { lastEdit, lastMoved } = editTimes(record.editHistory);
    if (lastEdit !== undefined) message.last_edit_timestamp = lastEdit;
    if (lastMoved !== undefined) message.last_moved_timestamp = lastMoved;
    if (realmSetting(services.org.realm, 'allow_edit_history')) message.edit_history = historyEntries(record.editHistory, format.allowEmptyTopicName);
  }
  return message;
}

export function recipientIdFor(services: Services, record: MessageRecord, viewerId: number): number {
  if (record.type === 'private' && record.dmUserIds!.length === 2 && viewerId !== record.senderId) {
    return services.org.users.get(record.senderId)?.recipientId ?? record.recipientId;
  }
  return record.recipientId;
}

export function senderOf(services: Services, record: MessageRecord): UserRecord | undefined {
  return services.org.users.get(record.senderId);
}
