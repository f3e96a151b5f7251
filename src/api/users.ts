/** Reading users: `GET /users`, `GET /users/me`, `GET /users/{user_id}`, `GET /users/{email}`. */
import { newestMessageId } from '../queries/message-state.js';
import { badRequest } from '../domain/errors.js';
import { realmSetting } from '../domain/realm.js';
import { canSeeEmail, formatUser, type UserRecord } from '../domain/users.js';
import { RawJson } from '../shared/handler-result.js';
import type { Services } from '../services.js';
import { unauthorized } from '../queries/credentials.js';
import { userByPathEmail } from '../queries/user-lookup.js';
import * as schemas from '../../schemas/index.js';
import { me, type Request } from './route.js';

/** May the organization's user list be read without credentials? */
function publicAccessEnabled(services: Services): boolean {
  const realm = services.org.realm;
  return realmSetting(realm, 'web_public_streams_enabled') && realmSetting(realm, 'enable_spectator_access');
}

function format(services: Services, target: UserRecord, viewer: UserRecord | undefined, clientGravatar: boolean, includeProfileData: boolean) {
  const { org } = services;
  return formatUser(target, viewer, { host: org.host, realmUrl: org.url, clientGravatar, includeProfileData });
}

// `GET /users/me` is the hottest read: its fields are serialised once per user record (records
// are replaced, never mutated, on change, and belong to one server, hence one host).
const ownFields = new WeakMap<UserRecord, string>();
function ownJson(services: Services, user: UserRecord): string {
  let json = ownFields.get(user);
  if (json === undefined) {
    const fields = format(services, user, user, false, true);
    if (!user.isBot) delete fields.bot_type;
    json = JSON.stringify(fields).slice(1, -1);
    ownFields.set(user, json);
  }
  return json;
}

// GET /users serialises each user once per way of seeing them (records are replaced on change).
const listed = new WeakMap<UserRecord, Map<string, string>>();
function listedJson(services: Services, target: UserRecord, viewer: UserRecord | undefined, clientGravatar: boolean, profiles: boolean): string {
  const variant = `${+canSeeEmail(viewer, target)}${+clientGravatar}${+profiles}`;
  let forms = listed.get(target);
  if (!forms) listed.set(target, (forms = new Map()));
  let json = forms.get(variant);
  if (json === undefined) {
    json = JSON.stringify(format(services, target, viewer, clientGravatar, profiles));
    forms.set(variant, json);
  }
  return json;
}

function findUser(services: Services, id: number): UserRecord {
  const user = services.org.users.get(id);
  if (!user || user.isSystemBot) throw badRequest('No such user');
  return user;
}

/** GET /users */
export function getUsers(services: Services, { principal, params }: Request<typeof schemas.getUsers>) {
  if (!principal && !publicAccessEnabled(services)) throw unauthorized();
  const ids = params.user_ids;
  let targets: UserRecord[];
  if (ids) {
    targets = ids.map((id) => {
      const user = services.org.users.get(id);
      if (!user || user.isSystemBot) throw badRequest(`Invalid user ID: ${id}`);
      return user;
    });
  } else {
    targets = [...services.org.users.all()].filter((user) => !user.isSystemBot);
  }
  const clientGravatar = params.client_gravatar;
  const profiles = params.include_custom_profile_fields;
  const members = targets.map((target) => listedJson(services, target, principal, clientGravatar, profiles));
  return new RawJson(`"members":[${members.join(',')}]`);
}

/** GET /users/me */
export function getOwnUser(services: Services, request: Request<typeof schemas.getOwnUser>) {
  const user = me(request);
  const max = newestMessageId(services, user.id);
  if (typeof max === 'number') return new RawJson(`${ownJson(services, user)},"max_message_id":${max}`);
  return max.then((id) => new RawJson(`${ownJson(services, user)},"max_message_id":${id}`));
}

/** GET /users/{user_id:int} */
export function getUser(services: Services, request: Request<typeof schemas.getUser, { user_id: number }>) {
  const viewer = me(request);
  const target = findUser(services, request.params.user_id);
  return { user: format(services, target, viewer, request.params.client_gravatar, request.params.include_custom_profile_fields) };
}

/** GET /users/{email:email} */
export function getUserByEmail(services: Services, request: Request<typeof schemas.getUserByEmail, { email: string }>) {
  const viewer = me(request);
  const target = userByPathEmail(services, viewer, request.params.email);
  return { user: format(services, target, viewer, request.params.client_gravatar, request.params.include_custom_profile_fields) };
}
