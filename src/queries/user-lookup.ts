/** Finding the user a path names by email, as Zulip's `GET /users/{email}` (feature level 302) does. */
import { badRequest } from '../domain/errors.js';
import { canSeeEmail, type UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';

/**
 * The user `email` names for `viewer`: a real address finds its user only when the viewer may
 * see it; the dummy address `user{id}@{host}` finds any user by the id in it. Else "No such user".
 */
export function userByPathEmail(services: Services, viewer: UserRecord, email: string): UserRecord {
  const { org } = services;
  const dummy = /^user(\d+)@(.+)$/i.exec(email);
  if (dummy && dummy[2]!.toLowerCase() === org.host.toLowerCase()) {
    const user = org.users.get(Number(dummy[1]));
    if (user && !user.isSystemBot) return user;
  }
  const user = org.users.byEmail(email);
  const visible = user && (user.deliveryEmail.toLowerCase() !== email.toLowerCase() || canSeeEmail(viewer, user));
  if (!user || !visible || user.isSystemBot) throw badRequest('No such user');
  return user;
}
