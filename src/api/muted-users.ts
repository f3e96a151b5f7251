/** Muted users: `POST` and `DELETE /users/me/muted_users/{muted_user_id}`. */
import type { Services } from '../services.js';
import * as schemas from '../../schemas/index.js';
import { muteUser as mute, unmuteUser as unmute } from '../actions/muted-users.js';
import { me, type Request } from './route.js';

/** POST /users/me/muted_users/{muted_user_id} */
export async function muteUser(services: Services, request: Request<typeof schemas.muteUser, { muted_user_id: number }>) {
  await mute(services, me(request), request.params.muted_user_id);
  return {};
}

/** DELETE /users/me/muted_users/{muted_user_id} */
export async function unmuteUser(services: Services, request: Request<typeof schemas.unmuteUser, { muted_user_id: number }>) {
  await unmute(services, me(request), request.params.muted_user_id);
  return {};
}
