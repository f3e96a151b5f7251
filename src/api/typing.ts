/** `POST /typing`: typing notifications. */
import type { Services } from '../services.js';
import { sendTyping } from '../actions/typing.js';
import * as schemas from '../../schemas/index.js';
import { me, type Request } from './route.js';

/** POST /typing */
export async function setTypingStatus(services: Services, request: Request<typeof schemas.setTypingStatus>) {
  const p = request.params;
  await sendTyping(services, me(request), { type: p.type, op: p.op, to: p.to, streamId: p.stream_id, topic: p.topic });
  return {};
}
