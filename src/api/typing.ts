/** `POST /typing` and `POST /messages/{message_id}/typing`: typing notifications. */
import type { Services } from '../services.js';
import { sendEditTyping, sendTyping } from '../actions/typing.js';
import * as schemas from '../../schemas/index.js';
import { me, type Request } from './route.js';

/** POST /typing */
export async function setTypingStatus(services: Services, request: Request<typeof schemas.setTypingStatus>) {
  const p = request.params;
  await sendTyping(services, me(request), { type: p.type, op: p.op, to: p.to, streamId: p.stream_id, topic: p.topic });
  return {};
}

/** POST /messages/{message_id:int}/typing */
export async function setTypingStatusForMessageEdit(services: Services, request: Request<typeof schemas.setTypingStatusForMessageEdit, { message_id: number }>) {
  await sendEditTyping(services, me(request), request.params.message_id, request.params.op);
  return {};
}
