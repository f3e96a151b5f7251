/** Typing notifications: relayed as `typing` (and `typing_edit_message`) events to the conversation's people, never stored. */
import { badRequest } from '../domain/errors.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../domain/realm.js';
import { normalizeTopic } from '../domain/topics.js';
import { apiEmail, type UserRecord } from '../domain/users.js';
import { settingOn } from '../domain/user-settings.js';
import { LIMITS } from '../domain/versions.js';
import type { Services } from '../services.js';
import { accessChannelById } from '../queries/channel-access.js';
import { requireMessage } from '../queries/message-access.js';
import { mayAlterMessageIn, mayEditContent, refusalError } from '../domain/permissions.js';
import { unixSeconds } from '../services.js';
import { withFields } from '../shared/with-fields.js';

/** Channels larger than this get no typing notifications (Zulip's limit). */
const MAX_CHANNEL_SIZE_FOR_TYPING = 100;

export interface TypingRequest {
  type: 'direct' | 'stream' | 'channel';
  op: 'start' | 'stop';
  to?: number[];
  streamId?: number;
  topic?: string;
}

const setting = (user: UserRecord, name: 'send_private_typing_notifications' | 'send_stream_typing_notifications' | 'receives_typing_notifications') =>
  settingOn(user, name);

export function sendTyping(services: Services, user: UserRecord, request: TypingRequest): Promise<void> {
  const { org } = services;
  const person = (u: { id: number }) => ({ user_id: u.id, email: apiEmail(org.users.get(u.id)!, org.host) });
  return services.write((tx) => {
    if (request.type === 'direct') {
      if (request.to === undefined) throw badRequest("Missing 'to' argument");
      if (request.to.length === 0) throw badRequest("Empty 'to' list");
      if (!setting(user, 'send_private_typing_notifications')) throw badRequest('User has disabled typing notifications for direct messages');
      // Deactivated users may be listed (Zulip names the conversation with them); only active ones are told.
      const users = request.to.map((id) => {
        const found = org.users.get(id);
        if (!found) throw badRequest(`Invalid user ID ${id}`);
        return found;
      });
      if (!users.some((u) => u.id === user.id)) users.push(user);
      tx.emit(
        { type: 'typing', op: request.op, message_type: 'direct', sender: person(user), recipients: users.map(person) },
        users.filter((u) => u.isActive && setting(u, 'receives_typing_notifications')).map((u) => u.id),
      );
      return;
    }
    if (request.streamId === undefined) throw badRequest("Missing 'stream_id' argument");
    if (request.topic === undefined) throw badRequest('Missing topic');
    if (!setting(user, 'send_stream_typing_notifications')) throw badRequest('User has disabled typing notifications for channel messages');
    const channel = accessChannelById(services, user, request.streamId);
    const topic = normalizeTopic(request.topic, { maxLength: LIMITS.maxTopicLength, emptyTopicDisplayName: EMPTY_TOPIC_DISPLAY_NAME });
    const subscribers = [...services.subscriptions.subscribersOf(channel.id)].filter((id) => {
      const subscriber = org.users.get(id);
      return subscriber?.isActive === true && setting(subscriber, 'receives_typing_notifications');
    });
    if (subscribers.length <= MAX_CHANNEL_SIZE_FOR_TYPING) {
      tx.emit({ type: 'typing', op: request.op, message_type: 'stream', sender: person(user), stream_id: channel.id, topic }, subscribers);
    }
  });
}

/**
 * POST /messages/{message_id}/typing: the user is editing one of their messages. Told to those
 * who would be told of the edit (the channel's subscribers, or the conversation's people), as
 * Zulip's `typing_edit_message`; only someone who may edit the message's content may say so.
 */
export function sendEditTyping(services: Services, user: UserRecord, messageId: number, op: 'start' | 'stop'): Promise<void> {
  const { org } = services;
  const listening = (id: number) => {
    const other = org.users.get(id);
    return other?.isActive === true && setting(other, 'receives_typing_notifications');
  };
  return services.write((tx) => {
    const { record } = requireMessage(services, user, messageId);
    const channel = record.type === 'stream' ? org.channels.get(record.channelId!) : undefined;
    const refusal = mayAlterMessageIn(channel) ?? mayEditContent(user, record, org.realm, unixSeconds(services.clock));
    if (refusal) throw refusalError(refusal);
    const event = { type: 'typing_edit_message', op, sender_id: user.id, message_id: record.id };
    if (channel) {
      if (!setting(user, 'send_stream_typing_notifications')) throw badRequest('User has disabled typing notifications for channel messages');
      const subscribers = [...services.subscriptions.subscribersOf(channel.id)].filter(listening);
      if (subscribers.length > MAX_CHANNEL_SIZE_FOR_TYPING) return;
      tx.emit(withFields(event, { recipient: { type: 'channel', channel_id: channel.id, topic: record.topic } }), subscribers);
      return;
    }
    if (!setting(user, 'send_private_typing_notifications')) throw badRequest('User has disabled typing notifications for direct messages');
    const userIds = record.dmUserIds!;
    tx.emit(withFields(event, { recipient: { type: 'direct', user_ids: userIds } }), userIds.filter(listening));
  });
}
