/** User status: `POST /users/me/status`, `POST /users/{user_id}/status` (administrators), `GET /users/{user_id}/status`. */
import type { Services } from '../services.js';
import * as schemas from '../../schemas/index.js';
import { updateOwnStatus, updateStatusOf } from '../actions/user-status.js';
import { statusOf, statusTarget } from '../queries/user-status.js';
import { me, type Request } from './route.js';

/** POST /users/me/status */
export async function updateStatus(services: Services, request: Request<typeof schemas.updateStatus>) {
  await updateOwnStatus(services, me(request), request.params);
  return {};
}

/** POST /users/{user_id}/status */
export async function updateStatusForUser(services: Services, request: Request<typeof schemas.updateStatusForUser, { user_id: number }>) {
  const { user_id, ...status } = request.params;
  await updateStatusOf(services, me(request), user_id, status);
  return {};
}

/** GET /users/{user_id}/status */
export function getUserStatus(services: Services, request: Request<typeof schemas.getUserStatus, { user_id: number }>) {
  me(request);
  return { status: statusOf(statusTarget(services, request.params.user_id)) };
}
