/** Deleting a message: who may delete what and when, and the `delete_message` event. */
import { mayDeleteMessage, refusalError } from '../domain/permissions.js';
import { badRequest } from '../domain/errors.js';
import type { MessageRecord } from '../domain/messages.js';
import { topicKey } from '../domain/topics.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import type { Transaction } from '../store/transaction.js';
import { unixSeconds } from '../services.js';
import { messageAudience } from '../queries/message-audience.js';
import { newestInTopic } from '../queries/topics.js';
import { requireMessage } from '../queries/message-access.js';
import { unlinkDeletedMessage } from './attachment-links.js';
import { removeDeletedPushes } from './notification-removal.js';

function checkMayDelete(services: Services, user: UserRecord, record: MessageRecord): void {
  const { org } = services;
  const channel = record.type === 'stream' ? org.channels.get(record.channelId!) : undefined;
  const refusal = mayDeleteMessage(user, record, org.users.get(record.senderId), channel, org.realm, org.groups, unixSeconds(services.clock));
  if (refusal) throw refusalError(refusal);
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
    dropMessage(services, tx, current, key);
    removeDeletedPushes(services, tx, [current.id]);
    if (key !== undefined) {
      const topic = messages.topic(current.channelId!, key, tx);
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

/** Removes a message from the store with its indexes, listed rows and file links (no event: the caller sends it). */
export function dropMessage(services: Services, tx: Transaction, current: MessageRecord, key: string | undefined): void {
  const { messages } = services;
  messages.unindex(current, key, tx);
  for (const userId of current.userIds) messages.dropFlags(userId, current.id, tx);
  messages.delete(current, tx);
  unlinkDeletedMessage(services, tx, current.id);
}
