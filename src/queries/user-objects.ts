/**
 * Users as GET /users, /users/me and /users/{id} show them, with the caches that keep the hottest
 * reads cheap: records are replaced, never mutated, on change, and belong to one server (one host),
 * so a serialised form is kept per record (and per way of seeing it).
 */
import { badRequest } from '../domain/errors.js';
import { realmSetting } from '../domain/realm.js';
import { canSeeEmail, formatUser, type UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import { EncodedAnswer, RawJson } from '../shared/handler-result.js';

/** May the organization's user list be read without credentials? */
export function publicAccessEnabled(services: Services): boolean {
  const realm = services.org.realm;
  return realmSetting(realm, 'web_public_streams_enabled') && realmSetting(realm, 'enable_spectator_access');
}

/** One user as `viewer` sees them. */
export function userObject(services: Services, target: UserRecord, viewer: UserRecord | undefined, clientGravatar: boolean, includeProfileData: boolean) {
  const { org } = services;
  return formatUser(target, viewer, { host: org.host, realmUrl: org.url, clientGravatar, includeProfileData });
}

// `GET /users/me` is the hottest read: its fields are serialised once per user record.
const ownFields = new WeakMap<UserRecord, string>();

/** The user's own fields as JSON without the braces (GET /users/me adds `max_message_id`). */
export function ownUserJson(services: Services, user: UserRecord): string {
  let json = ownFields.get(user);
  if (json === undefined) {
    const fields = userObject(services, user, user, false, true);
    if (!user.isBot) delete fields.bot_type;
    json = JSON.stringify(fields).slice(1, -1);
    ownFields.set(user, json);
  }
  return json;
}

// GET /users serialises each user once per way of seeing them.
const listed = new WeakMap<UserRecord, Map<string, string>>();

/** One member of GET /users as JSON. */
export function listedUserJson(services: Services, target: UserRecord, viewer: UserRecord | undefined, clientGravatar: boolean, profiles: boolean): string {
  const variant = `${+canSeeEmail(viewer, target)}${+clientGravatar}${+profiles}`;
  let forms = listed.get(target);
  if (!forms) listed.set(target, (forms = new Map()));
  let json = forms.get(variant);
  if (json === undefined) {
    json = JSON.stringify(userObject(services, target, viewer, clientGravatar, profiles));
    forms.set(variant, json);
  }
  return json;
}

/** The users GET /users lists: those asked for (each must exist), else everyone but the system bots. */
export function listedUsers(services: Services, ids: readonly number[] | undefined): UserRecord[] {
  if (!ids) return [...services.org.users.all()].filter((user) => !user.isSystemBot);
  return ids.map((id) => {
    const user = services.org.users.get(id);
    if (!user || user.isSystemBot) throw badRequest(`Invalid user ID: ${id}`);
    return user;
  });
}

/** A user by id, as GET /users/{id} finds them. */
export function userById(services: Services, id: number): UserRecord {
  const user = services.org.users.get(id);
  if (!user || user.isSystemBot) throw badRequest('No such user');
  return user;
}

/**
 * GET /users/me's answer, kept per user record with the `max_message_id` it was made for: while
 * both are the same (as between most of a client's calls) the same answer is returned, and the
 * HTTP front writes its bytes, encoded once (RawJson.encoded), instead of a new string per call.
 */
const ownAnswers = new WeakMap<UserRecord, { fields: string; max: number; answer: RawJson }>();

export function ownUserAnswer(services: Services, user: UserRecord, max: number): RawJson {
  const fields = ownUserJson(services, user);
  const kept = ownAnswers.get(user);
  if (kept !== undefined && kept.fields === fields && kept.max === max) return kept.answer;
  const answer = new RawJson(`${fields},"max_message_id":${max}`, new EncodedAnswer());
  ownAnswers.set(user, { fields, max, answer });
  return answer;
}
