/** Users' statuses as the API shows them: one user's (`GET /users/{user_id}/status`) and everyone's (`user_status` in register). */
import { badRequest } from '../domain/errors.js';
import { statusObject } from '../domain/user-status.js';
import { settingOn } from '../domain/user-settings.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';

/** A user whose status may be read or set: a human of this organization, active; else Zulip's refusal. */
export function statusTarget(services: Services, userId: number): UserRecord {
  const user = services.org.users.get(userId);
  if (!user || user.isBot) throw badRequest('No such user');
  if (!user.isActive) throw badRequest('User is deactivated');
  return user;
}

/** The setting defaults to true; only a stored false hides presence. */
const presenceEnabled = (user: UserRecord) => settingOn(user, 'presence_enabled');

export function statusOf(user: UserRecord): Record<string, unknown> {
  return statusObject(user.status, presenceEnabled(user));
}

/** Every active user with something to show, by user id. */
export function allStatuses(services: Services): Record<string, Record<string, unknown>> {
  const all: Record<string, Record<string, unknown>> = {};
  for (const user of services.org.users.all()) {
    if (!user.isActive || user.isBot) continue;
    const object = statusOf(user);
    if (Object.keys(object).length > 0) all[user.id] = object;
  }
  return all;
}
