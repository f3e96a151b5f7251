/** Reading users: `GET /users`, `GET /users/me`, `GET /users/{user_id}`, `GET /users/{email}`. */
import { newestMessageId } from '../queries/message-state.js';
import { RawJson } from '../shared/handler-result.js';
import type { Services } from '../services.js';
import { unauthorized } from '../queries/credentials.js';
import { userByPathEmail } from '../queries/user-lookup.js';
import { userListAnswer } from '../queries/user-list-json.js';
import { listedUserJson, listedUsers, ownUserAnswer, publicAccessEnabled, userById, userObject } from '../queries/user-objects.js';
import * as schemas from '../../schemas/index.js';
import { me, type Request } from './route.js';

/** GET /users */
export function getUsers(services: Services, { principal, params }: Request<typeof schemas.getUsers>) {
  if (!principal && !publicAccessEnabled(services)) throw unauthorized();
  const { client_gravatar: clientGravatar, include_custom_profile_fields: profiles } = params;
  if (params.user_ids === undefined) return userListAnswer(services, principal, clientGravatar, profiles);
  const members = listedUsers(services, params.user_ids).map((target) => listedUserJson(services, target, principal, clientGravatar, profiles));
  return new RawJson(`"members":[${members.join(',')}]`);
}

/** GET /users/me */
export function getOwnUser(services: Services, request: Request<typeof schemas.getOwnUser>) {
  const user = me(request);
  const max = newestMessageId(services, user.id);
  if (typeof max === 'number') return ownUserAnswer(services, user, max);
  return max.then((id) => ownUserAnswer(services, user, id));
}

/** GET /users/{user_id:int} */
export function getUser(services: Services, request: Request<typeof schemas.getUser, { user_id: number }>) {
  const target = userById(services, request.params.user_id);
  return { user: userObject(services, target, me(request), request.params.client_gravatar, request.params.include_custom_profile_fields) };
}

/** GET /users/{email:email} */
export function getUserByEmail(services: Services, request: Request<typeof schemas.getUserByEmail, { email: string }>) {
  const viewer = me(request);
  const target = userByPathEmail(services, viewer, request.params.email);
  return { user: userObject(services, target, viewer, request.params.client_gravatar, request.params.include_custom_profile_fields) };
}
