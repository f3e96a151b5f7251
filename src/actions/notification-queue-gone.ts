/**
 * Zulip's missedmessage_hook (zerver/tornado/event_queue.py): the idle check at sending cannot
 * see that a client went away (a laptop suspended) until its queue expires. So when a user's
 * last event queue is deleted or expires, the messages it still held (not acknowledged by any
 * client) that would have notified an idle user, and did not because the user seemed active,
 * notify now: the push if none was sent, and the email. Delivery then skips those read meanwhile.
 */
import type { QueuedEvent } from '../events/event-queue.js';
import type { Services } from '../services.js';
import { hasPushDevice, recordDecisions, type Decided } from './notification-decision.js';

/** The id of a `message` event's message; undefined for any other event. */
function messageIdOf(event: QueuedEvent): number | undefined {
  if (!event.json.includes('"message"')) return undefined;
  const parsed = JSON.parse(event.json) as { type?: unknown; message?: { id?: unknown } };
  return parsed.type === 'message' && typeof parsed.message?.id === 'number' ? parsed.message.id : undefined;
}

/** Called once the removal of the user's last queue is durable, with the events the queues held. */
export function notifyWhenQueuesGone(services: Services, userId: number, pending: readonly QueuedEvent[]): void {
  const held = services.notifications.takeHeldBack(userId);
  if (!held || held.size === 0 || !services.org.users.get(userId)?.isActive) return;
  const decided: Decided = { jobs: [], mails: [] };
  const canPush = services.config.pushBouncerUrl !== undefined && hasPushDevice(services, userId);
  for (const event of pending) {
    const messageId = messageIdOf(event);
    const what = messageId === undefined ? undefined : held.get(messageId);
    if (!what || messageId === undefined) continue;
    const group = what.mentionedGroupId === undefined ? {} : { mentionedGroupId: what.mentionedGroupId };
    if (what.push && canPush) decided.jobs.push({ kind: 'message', userId, messageId, trigger: what.push, ...group });
    if (what.email) decided.mails.push({ userId, messageId, trigger: what.email, ...group });
  }
  if (decided.jobs.length === 0 && decided.mails.length === 0) return;
  recordDecisions(services, decided).catch((error: unknown) => services.logger.error({ err: error }, 'notifications of a gone queue not recorded'));
}
