/** `POST /messages`: reading the addressing rules of Zulip's send, checking permissions, then writing. */
import { missingArgument } from '../domain/errors.js';
import type { Services } from '../services.js';
import * as schemas from '../../schemas/index.js';
import { me, type Request } from './route.js';
import { topicParameter } from '../domain/topics.js';
import { sendAndNotifyServiceBots } from '../actions/outgoing-webhooks.js';

/** POST /messages */
export function sendMessage(services: Services, request: Request<typeof schemas.sendMessage>) {
  const p = request.params;
  // Local echo needs both: the queue to echo to and the id the client will recognise.
  if (p.queue_id !== undefined && p.local_id === undefined) throw missingArgument('local_id');
  return sendAndNotifyServiceBots(services, me(request), request.client, {
    type: p.type,
    to: p.to,
    content: p.content,
    topic: topicParameter(p),
    queueId: p.queue_id,
    localId: p.local_id,
    readBySender: p.read_by_sender,
    widgetContent: p.widget_content,
  });
}
