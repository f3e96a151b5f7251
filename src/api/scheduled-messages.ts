/** `/scheduled_messages`: messages to be sent later, the caller's own only. */
import type { Services } from '../services.js';
import * as schemas from '../../schemas/index.js';
import { me, type Request } from './route.js';
import { topicParameter } from '../domain/topics.js';
import * as actions from '../actions/scheduled-messages.js';
import { scheduledMessagesOf } from '../queries/scheduled-messages.js';

/** GET /scheduled_messages */
export function getScheduledMessages(services: Services, request: Request<typeof schemas.getScheduledMessages>) {
  return { scheduled_messages: scheduledMessagesOf(services, me(request)) };
}

/** POST /scheduled_messages */
export async function createScheduledMessage(services: Services, request: Request<typeof schemas.createScheduledMessage>) {
  const p = request.params;
  const id = await actions.createScheduledMessage(services, me(request), request.client, {
    type: p.type,
    to: p.to,
    content: p.content,
    topic: topicParameter(p),
    deliverAt: p.scheduled_delivery_timestamp,
    readBySender: p.read_by_sender,
  });
  return { scheduled_message_id: id };
}

/** PATCH /scheduled_messages/{scheduled_message_id:int} */
export async function updateScheduledMessage(services: Services, request: Request<typeof schemas.updateScheduledMessage, { scheduled_message_id: number }>) {
  const p = request.params;
  await actions.editScheduledMessage(services, me(request), request.client, p.scheduled_message_id, {
    type: p.type,
    to: p.to,
    content: p.content,
    topic: topicParameter(p),
    deliverAt: p.scheduled_delivery_timestamp,
  });
  return {};
}

/** DELETE /scheduled_messages/{scheduled_message_id:int} */
export async function deleteScheduledMessage(services: Services, request: Request<typeof schemas.deleteScheduledMessage, { scheduled_message_id: number }>) {
  await actions.deleteScheduledMessage(services, me(request), request.params.scheduled_message_id);
  return {};
}
