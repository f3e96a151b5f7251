/** Deactivating and reactivating accounts: `DELETE /users/{user_id}`, `POST /users/{user_id}/reactivate`, `DELETE /users/me`. */
import { badRequest } from '../domain/errors.js';
import type { Services } from '../services.js';
import * as schemas from '../../schemas/index.js';
import { me, type Request } from './route.js';
import { target } from './user-admin.js';
import * as actions from '../actions/deactivation.js';

/** DELETE /users/{user_id:int}: users only (bots have their own endpoint in Zulip). */
export function deactivateUser(services: Services, request: Request<typeof schemas.deactivateUser, { user_id: number }>) {
  const user = target(services, request.params.user_id);
  if (user.isBot) throw badRequest('No such user');
  return actions.deactivateUser(services, me(request), user, request.params.deactivation_notification_comment);
}

/** POST /users/{user_id:int}/reactivate */
export function reactivateUser(services: Services, request: Request<typeof schemas.reactivateUser, { user_id: number }>) {
  return actions.reactivateUser(services, me(request), target(services, request.params.user_id));
}

/** DELETE /users/me */
export function deactivateOwnUser(services: Services, request: Request<typeof schemas.deactivateOwnUser>) {
  return actions.deactivateOwnUser(services, me(request));
}
