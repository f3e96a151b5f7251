/** Reading presence without reporting one's own: `GET /users/{user_id_or_email}/presence`, `GET /realm/presence`. */
import { badRequest } from '../domain/errors.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import { presences, userPresence } from '../queries/presence.js';
import { userByPathEmail } from '../queries/user-lookup.js';
import * as schemas from '../../schemas/index.js';
import { me, type Request } from './route.js';

function target(services: Services, viewer: UserRecord, idOrEmail: string): UserRecord {
  let user: UserRecord | undefined;
  if (/^[0-9]+$/.test(idOrEmail)) user = services.org.users.get(Number(idOrEmail));
  else user = userByPathEmail(services, viewer, idOrEmail);
  if (!user || !user.isActive || user.isSystemBot) throw badRequest('No such user');
  return user;
}

/** GET /users/{user_id_or_email}/presence */
export function getUserPresence(services: Services, request: Request<typeof schemas.getUserPresence, { user_id_or_email: string }>) {
  const key = request.params.user_id_or_email;
  const user = target(services, me(request), key);
  if (user.isBot) throw badRequest('Presence is not supported for bot users.');
  const presence = userPresence(services, user, Math.floor(services.clock.now() / 1000));
  if (!presence) throw badRequest(`No presence data for ${key}`);
  return { presence };
}

/** GET /realm/presence */
export function getRealmPresence(services: Services, request: Request<typeof schemas.getRealmPresence>) {
  me(request);
  const now = services.clock.now() / 1000;
  // Zulip's get_statuses_for_realm drops presence_last_update_id here ("not interested in this context").
  return { presences: presences(services, false, Math.floor(now)), server_timestamp: now };
}
