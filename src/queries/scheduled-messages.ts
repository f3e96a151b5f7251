/** Reading scheduled messages and reminders: only ever the caller's own. */
import { ApiError } from '../domain/errors.js';
import {
  dueOrder,
  REMINDER_MISSING,
  reminderObject,
  SCHEDULED_MESSAGE_MISSING,
  scheduledMessageObject,
  type ScheduledKind,
  type ScheduledMessageRecord,
} from '../domain/scheduled-messages.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';

/**
 * The caller's scheduled message (or reminder) with this id. Another user's, an unknown id and
 * one already sent get the same answer, Zulip's (a ResourceNotFoundError: 404, code BAD_REQUEST),
 * so that nobody learns whether someone else's id exists.
 */
export function requireScheduled(services: Services, user: UserRecord, id: number, kind: ScheduledKind): ScheduledMessageRecord {
  const record = services.scheduled.get(id);
  if (!record || record.senderId !== user.id || record.kind !== kind) {
    throw new ApiError('BAD_REQUEST', kind === 'send' ? SCHEDULED_MESSAGE_MISSING : REMINDER_MISSING, 404);
  }
  return record;
}

function ownInDueOrder(services: Services, user: UserRecord, kind: ScheduledKind): ScheduledMessageRecord[] {
  return services.scheduled
    .ofSender(user.id)
    .filter((record) => record.kind === kind)
    .sort((a, b) => dueOrder({ id: a.id, due: a.deliverAt }, { id: b.id, due: b.deliverAt }));
}

/** GET /scheduled_messages and the register state: the user's undelivered ones, failed included, in due order. */
export function scheduledMessagesOf(services: Services, user: UserRecord): Record<string, unknown>[] {
  return ownInDueOrder(services, user, 'send').map(scheduledMessageObject);
}

/** GET /reminders and the register state. */
export function remindersOf(services: Services, user: UserRecord): Record<string, unknown>[] {
  return ownInDueOrder(services, user, 'remind').map(reminderObject);
}
