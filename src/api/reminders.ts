/** `/reminders`: messages to oneself about a message, sent by the notification bot. */
import type { Services } from '../services.js';
import * as schemas from '../../schemas/index.js';
import { me, type Request } from './route.js';
import * as actions from '../actions/reminders.js';
import { remindersOf } from '../queries/scheduled-messages.js';

/** GET /reminders */
export function getReminders(services: Services, request: Request<typeof schemas.getReminders>) {
  return { reminders: remindersOf(services, me(request)) };
}

/** POST /reminders */
export async function createReminder(services: Services, request: Request<typeof schemas.createReminder>) {
  const p = request.params;
  const id = await actions.createReminder(services, me(request), request.client, {
    messageId: p.message_id,
    deliverAt: p.scheduled_delivery_timestamp,
    note: p.note,
  });
  return { reminder_id: id };
}

/** DELETE /reminders/{reminder_id:int} */
export async function deleteReminder(services: Services, request: Request<typeof schemas.deleteReminder, { reminder_id: number }>) {
  await actions.deleteReminder(services, me(request), request.params.reminder_id);
  return {};
}
