/** `POST` and `DELETE /messages/{message_id}/reactions`: emoji reactions, votes on them, and their events. */
import type { Services } from '../services.js';
import * as schemas from '../../schemas/index.js';
import { me, type Request } from './route.js';
import * as actions from '../actions/reactions.js';

/** POST /messages/{message_id:int}/reactions */
export async function addReaction(services: Services, request: Request<typeof schemas.addReaction, { message_id: number }>) {
  const p = request.params;
  await actions.addReaction(services, me(request), p.message_id, p.emoji_name, p.emoji_code, p.reaction_type);
  return {};
}

/** DELETE /messages/{message_id:int}/reactions */
export async function removeReaction(services: Services, request: Request<typeof schemas.removeReaction, { message_id: number }>) {
  const p = request.params;
  await actions.removeReaction(services, me(request), p.message_id, p.emoji_name, p.emoji_code, p.reaction_type);
  return {};
}
