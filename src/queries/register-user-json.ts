/**
 * One user as the user lists of POST /register show them (`realm_users` and its siblings),
 * serialised once per user record and way of seeing it; the lists themselves are built and kept
 * by queries/user-list-json.ts.
 */
import { isLongTermIdle } from '../domain/long-term-idle.js';
import { canSeeEmail, type UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import { userObject } from './user-objects.js';

export interface RegisterUsersOptions {
  clientGravatar: boolean;
  /** The client's `user_avatar_url_field_optional`: no `avatar_url` for long-term idle users, as Zulip. */
  avatarOptional: boolean;
}

// Records are replaced, never mutated, on change: a record's text stays right for its variant.
const texts = new WeakMap<UserRecord, Map<string, string>>();

/** `target` as `viewer` sees it in POST /register; `now` in unix seconds decides who is long-term idle. */
export function registerUserJson(services: Services, target: UserRecord, viewer: UserRecord, options: RegisterUsersOptions, now: number): string {
  const omitAvatar = options.avatarOptional && !target.isSystemBot && isLongTermIdle(services.presence.get(target.id)?.lastConnected, target.dateJoined, now);
  const variant = `${+canSeeEmail(viewer, target)}${+options.clientGravatar}${+omitAvatar}`;
  let forms = texts.get(target);
  if (!forms) texts.set(target, (forms = new Map()));
  let json = forms.get(variant);
  if (json === undefined) {
    const object = userObject(services, target, viewer, options.clientGravatar, true);
    delete object.is_active;
    if (omitAvatar) delete object.avatar_url;
    if (target.isSystemBot) object.is_system_bot = true;
    json = JSON.stringify(object);
    forms.set(variant, json);
  }
  return json;
}
