/**
 * Reminders: a message to oneself about a message, sent by the notification bot at the time
 * asked for. They are scheduled records of kind 'remind', on the same scheduler as scheduled
 * messages; their text is written when the reminder is made, as Zulip does.
 */
import { reminderContent } from '../domain/reminders.js';
import { checkDeliveryTime } from '../domain/scheduled-messages.js';
import type { UserRecord } from '../domain/users.js';
import { requireMessage } from '../queries/message-access.js';
import { requireScheduled } from '../queries/scheduled-messages.js';
import type { Services } from '../services.js';
import { unixSeconds } from '../services.js';
import { addScheduled, removeScheduled } from './scheduled-messages.js';

export interface ReminderRequest {
  messageId: number;
  /** Unix seconds. */
  deliverAt: number;
  note?: string;
}

/** POST /reminders */
export async function createReminder(services: Services, user: UserRecord, client: string, request: ReminderRequest): Promise<number> {
  checkDeliveryTime(request.deliverAt, unixSeconds(services.clock));
  const { record: message } = requireMessage(services, user, request.messageId);
  const { org } = services;
  const channel = message.type === 'stream' ? org.channels.get(message.channelId!) : undefined;
  const content = reminderContent(
    {
      id: message.id,
      sender: { id: message.senderId, fullName: org.users.get(message.senderId)?.fullName ?? 'Unknown user' },
      content: message.content,
      channel: channel && { id: channel.id, name: channel.name, topic: message.topic! },
      userIds: message.dmUserIds,
    },
    org.url,
    request.note,
  );
  return addScheduled(services, {
    kind: 'remind',
    senderId: user.id,
    type: 'private',
    userIds: [user.id],
    content,
    renderedContent: services.render(content, user).html,
    deliverAt: request.deliverAt,
    readBySender: false,
    client,
    failed: false,
    targetMessageId: message.id,
  });
}

/** DELETE /reminders/{id} */
export async function deleteReminder(services: Services, user: UserRecord, id: number): Promise<void> {
  await services.write((tx) => removeScheduled(services, tx, requireScheduled(services, user, id, 'remind')));
}
