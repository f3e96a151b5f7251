/** `POST /submessage`: widget events (votes, options, tasks) added to a message. */
import type { Services } from '../services.js';
import { addSubmessage } from '../actions/submessages.js';
import * as schemas from '../../schemas/index.js';
import { me, type Request } from './route.js';

/** POST /submessage */
export async function processSubmessage(services: Services, request: Request<typeof schemas.processSubmessage>) {
  const p = request.params;
  await addSubmessage(services, me(request), { messageId: p.message_id, msgType: p.msg_type, content: p.content });
  return {};
}
