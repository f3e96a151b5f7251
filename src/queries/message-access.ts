/** Whether a user may see a message (Zulip's access_message), and with which flags. */
import { badRequest } from '../domain/errors.js';
import { HISTORICAL_FLAGS, type MessageRecord } from '../domain/messages.js';
import { isGuest } from '../domain/roles.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import { channelHistoryReadable, channelReadable } from './channel-access.js';

/** The user's flags for a message they may see, or undefined (Zulip's access_message). */
export function accessMessage(services: Services, viewer: UserRecord, record: MessageRecord): number | undefined {
  const flags = services.messages.flags(viewer.id, record.id);
  if (record.type === 'private') return flags;
  const channel = services.org.channels.get(record.channelId!);
  if (!channel) return undefined;
  if (flags !== undefined) return channelReadable(services, viewer, channel) ? flags : undefined;
  if (!channel.inviteOnly && !isGuest(viewer.role)) return HISTORICAL_FLAGS;
  return channelHistoryReadable(services, viewer, channel) ? HISTORICAL_FLAGS : undefined;
}

/** A message the user may see, with their flags; otherwise `Invalid message(s)`. */
export function requireMessage(services: Services, viewer: UserRecord, messageId: number): { record: MessageRecord; flags: number } {
  const record = services.messages.get(messageId);
  const flags = record ? accessMessage(services, viewer, record) : undefined;
  if (!record || flags === undefined) throw badRequest('Invalid message(s)');
  return { record, flags };
}
