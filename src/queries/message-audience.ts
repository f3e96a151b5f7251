/**
 * Who hears about a change to a message: everyone who has it (a row, or a reception interval
 * holding it) and a channel's current subscribers, if active.
 */
import type { MessageRecord } from '../domain/messages.js';
import { holds } from '../domain/reception.js';
import type { Services } from '../services.js';

export function messageAudience(services: Services, record: MessageRecord): number[] {
  const audience = new Set(record.userIds);
  if (record.type === 'stream') {
    const { subscriptions } = services;
    for (const id of subscriptions.subscribersOf(record.channelId!)) audience.add(id);
    if (!record.explicit && record.id >= services.readMarks.explicitBelow) {
      for (const id of subscriptions.receiversOf(record.channelId!)) {
        if (!audience.has(id) && holds(subscriptions.received(id, record.channelId!), record.id)) audience.add(id);
      }
    }
  }
  return [...audience].filter((id) => services.org.users.get(id)?.isActive);
}
