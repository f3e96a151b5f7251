/** Who hears about a change to a message: everyone holding a record of it, and a channel's current subscribers. */
import type { MessageRecord } from '../domain/messages.js';
import type { Services } from '../services.js';

export function messageAudience(services: Services, record: MessageRecord): number[] {
  const audience = new Set(record.userIds);
  if (record.type === 'stream') for (const id of services.subscriptions.subscribersOf(record.channelId!)) audience.add(id);
  return [...audience].filter((id) => services.org.users.get(id)?.isActive);
}
