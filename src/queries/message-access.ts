/** Whether a user may see a message (Zulip's access_message), and with which flags. */
import { messageAccess } from '../domain/permissions.js';
import { badRequest } from '../domain/errors.js';
import { type MessageRecord } from '../domain/messages.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import { messageFlags } from './message-state.js';

/** The user's flags for a message they may see, or undefined (Zulip's access_message). */
export function accessMessage(services: Services, viewer: UserRecord, record: MessageRecord): number | undefined {
  const flags = messageFlags(services, viewer.id, record);
  const channel = record.type === 'stream' ? services.org.channels.get(record.channelId!) : undefined;
  return messageAccess(viewer, record, channel, flags, channel !== undefined && services.subscriptions.isSubscribed(viewer.id, channel.id));
}

/** A message the user may see, with their flags; otherwise `Invalid message(s)`. */
export function requireMessage(services: Services, viewer: UserRecord, messageId: number): { record: MessageRecord; flags: number } {
  const record = services.messages.get(messageId);
  const flags = record ? accessMessage(services, viewer, record) : undefined;
  if (!record || flags === undefined) throw badRequest('Invalid message(s)');
  return { record, flags };
}
