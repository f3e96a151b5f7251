/** Deleting a message: who may delete what and when, and the `delete_message` event. */
import { settingIncludes } from '../domain/groups.js';
import { badRequest } from '../domain/errors.js';
import type { MessageRecord } from '../domain/messages.js';
import { realmGroupSetting, realmSetting } from '../domain/realm.js';
import { topicKey } from '../domain/topics.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import { unixSeconds } from '../services.js';
import { messageAudience } from '../queries/message-audience.js';
import { newestInTopic } from '../queries/topics.js';
import { requireMessage } from '../queries/message-access.js';

function checkMayDelete(services: Services, user: UserRecord, record: MessageRecord): void {
  const { org } = services;
  const inSetting = (value: Parameters<typeof settingIncludes>[1] | undefined) => value !== undefined && settingIncludes(user.id, value, org.groups);
  if (inSetting(realmGroupSetting(org.realm, 'can_delete_any_message_group'))) return;
  const channel = record.type === 'stream' ? org.channels.get(record.channelId!) : undefined;
  if (inSetting(channel?.settings.can_delete_any_message_group)) return;
  const sender = org.users.get(record.senderId);
  const own = record.senderId === user.id || (sender?.isBot && sender.botOwnerId === user.id);
  const mayDeleteOwn = inSetting(realmGroupSetting(org.realm, 'can_delete_own_message_group')) || inSetting(channel?.settings.can_delete_own_message_group);
  if (!own || !mayDeleteOwn) throw badRequest("You don't have permission to delete this message");
  const limit = realmSetting(org.realm, 'message_content_delete_limit_seconds');
  if (limit !== null && unixSeconds(services.clock) - record.timestamp > limit) throw badRequest('The time limit for deleting this message has passed');
}

export async function deleteMessage(services: Services, user: UserRecord, messageId: number): Promise<void> {
  const { record } = requireMessage(services, user, messageId);
  const { messages, org } = services;
  if (record.type === 'stream' && org.channels.get(record.channelId!)?.isArchived) throw badRequest('Invalid message(s)');
  checkMayDelete(services, user, record);
  const key = record.type === 'stream' ? topicKey(record.topic!) : undefined;
  // Found before the batch: the topic's newest message once this one is gone.
  const newest = key === undefined ? undefined : await newestInTopic(services, record.channelId!, record.topic!, new Set([record.id]));
  const current = messages.get(messageId);
  if (!current) throw badRequest('Message already deleted');
  const audience = messageAudience(services, current);
  await services.write((tx) => {
    messages.unindex(current, key, tx);
    for (const userId of current.userIds) messages.dropFlags(userId, current.id, tx);
    messages.delete(current, tx);
    if (key !== undefined) {
      const topic = messages.topic(current.channelId!, key);
      if (topic) messages.saveTopic(current.channelId!, key, newest === undefined ? undefined : { ...topic, maxId: newest }, tx);
    }
    const event: Record<string, unknown> = { type: 'delete_message', message_ids: [current.id], message_id: current.id, message_type: current.type };
    if (current.type === 'stream') {
      event.stream_id = current.channelId;
      event.topic = current.topic;
    }
    tx.emit(event, audience);
  });
}
