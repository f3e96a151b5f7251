/** Administering users: `POST /users` (create) and `PATCH /users/{user_id}` / `{email}`, with `realm_user` events. */
import { badRequest } from '../domain/errors.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import { userByPathEmail } from '../queries/user-lookup.js';
import * as schemas from '../../schemas/index.js';
import { me, type Request } from './route.js';
import * as actions from '../actions/users.js';

/** The user an administrator names by id. */
export function target(services: Services, id: number): UserRecord {
  const user = services.org.users.get(id);
  if (!user || user.isSystemBot) throw badRequest('No such user');
  return user;
}

/** POST /users */
export async function createUser(services: Services, request: Request<typeof schemas.createUser>) {
  const p = request.params;
  const user = await actions.createUser(services, me(request), { email: p.email, fullName: p.full_name, password: p.password });
  return { user_id: user.id };
}

/** PATCH /users/{user_id:int} */
export function updateUser(services: Services, request: Request<typeof schemas.updateUser, { user_id: number }>) {
  return actions.updateUser(services, me(request), target(services, request.params.user_id), request.params);
}

/** PATCH /users/{email:email} */
export function updateUserByEmail(services: Services, request: Request<typeof schemas.updateUser, { email: string }>) {
  const actor = me(request);
  return actions.updateUser(services, actor, userByPathEmail(services, actor, request.params.email), request.params);
}
