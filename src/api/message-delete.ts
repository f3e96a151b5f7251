/** `DELETE /messages/{message_id}`: who may delete what and when, and the `delete_message` event. */
import type { Services } from '../services.js';
import * as schemas from '../../schemas/index.js';
import { me, type Request } from './route.js';
import * as actions from '../actions/message-delete.js';

/** DELETE /messages/{message_id:int} */
export async function deleteMessage(services: Services, request: Request<typeof schemas.deleteMessage, { message_id: number }>) {
  await actions.deleteMessage(services, me(request), request.params.message_id);
  return {};
}
