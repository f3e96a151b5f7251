/**
 * Changing a user's status (`POST /users/me/status`, and an administrator's
 * `POST /users/{user_id}/status`): saved on the user record, sent to everyone in the organization
 * as a `user_status` event, as Zulip does.
 */
import { badRequest } from '../domain/errors.js';
import { NO_STATUS, planStatusChange, type StatusRequest } from '../domain/user-status.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import { statusTarget } from '../queries/user-status.js';
import { changeSetting } from './settings.js';
import { everyone } from './users.js';
import { mayAdministerUsers, refusalError } from '../domain/permissions.js';

function writeStatus(services: Services, targetId: number, request: StatusRequest): Promise<void> {
  return services.write((tx) => {
    let user = services.org.users.get(targetId)!;
    const { status, changed } = planStatusChange(user.status ?? NO_STATUS, request, services.realmEmoji);
    // The deprecated `away` is the inverse of the presence_enabled setting.
    if (request.away !== undefined) user = changeSetting(services, tx, user, 'presence_enabled', !request.away);
    services.org.users.save({ ...user, status }, tx);
    tx.emit({ type: 'user_status', user_id: user.id, ...changed }, everyone(services));
  });
}

/** `POST /users/me/status` */
export async function updateOwnStatus(services: Services, user: UserRecord, request: StatusRequest): Promise<void> {
  if (user.isBot) throw badRequest('This endpoint does not accept bot requests.');
  await writeStatus(services, user.id, request);
}

/** `POST /users/{user_id}/status`: administrators only (the spec's rule, for their own status too), without `away`. */
export async function updateStatusOf(services: Services, actor: UserRecord, userId: number, request: Omit<StatusRequest, 'away'>): Promise<void> {
  if (actor.isBot) throw badRequest('This endpoint does not accept bot requests.');
  const refusal = mayAdministerUsers(actor);
  if (refusal) throw refusalError(refusal);
  const target = statusTarget(services, userId);
  await writeStatus(services, target.id, request);
}
