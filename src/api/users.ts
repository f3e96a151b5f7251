/** Reading users: `GET /users`, `GET /users/me`, `GET /users/{user_id}`, `GET /users/{email}`. */
import { badRequest } from '../domain/errors.js';
import { realmSetting } from '../domain/realm.js';
import { canSeeEmail, formatUser, type UserRecord } from '../domain/users.js';
import { RawJson } from '../shared/handler-result.js';
import type { Services } from '../services.js';
import { unauthorized } from './authentication.js';
import { me, type ApiRoute } from './route.js';

export interface UserReadDeps {
  /** The newest message id `userId` received, or -1. */
  maxMessageId(userId: number): number | Promise<number>;
}

/** May the organization's user list be read without credentials? */
function publicAccessEnabled(services: Services): boolean {
  const realm = services.org.realm;
  return realmSetting(realm, 'web_public_streams_enabled') && realmSetting(realm, 'enable_spectator_access');
}

export function userRoutes(services: Services, deps: UserReadDeps): ApiRoute[] {
  const { org } = services;
  const format = (target: UserRecord, viewer: UserRecord | undefined, clientGravatar: boolean, includeProfileData: boolean) =>
    formatUser(target, viewer, { host: org.host, realmUrl: org.url, clientGravatar, includeProfileData });

  // `GET /users/me` is the hottest read: its fields are serialised once per user record
  // (records are replaced, never mutated, on change).
  const ownFields = new WeakMap<UserRecord, string>();
  const ownJson = (user: UserRecord): string => {
    let json = ownFields.get(user);
    if (json === undefined) {
      const fields = format(user, user, false, true);
      if (!user.isBot) delete fields.bot_type;
      json = JSON.stringify(fields).slice(1, -1);
      ownFields.set(user, json);
    }
    return json;
  };

  // GET /users serialises each user once per way of seeing them (records are replaced on change).
  const listed = new WeakMap<UserRecord, Map<string, string>>();
  const listedJson = (target: UserRecord, viewer: UserRecord | undefined, clientGravatar: boolean, profiles: boolean): string => {
    const variant = `${+canSeeEmail(viewer, target)}${+clientGravatar}${+profiles}`;
    let forms = listed.get(target);
    if (!forms) listed.set(target, (forms = new Map()));
    let json = forms.get(variant);
    if (json === undefined) {
      json = JSON.stringify(format(target, viewer, clientGravatar, profiles));
      forms.set(variant, json);
    }
    return json;
  };

  const findUser = (id: number) => {
    const user = org.users.get(id);
    if (!user || user.isSystemBot) throw badRequest('No such user');
    return user;
  };

  return [
    {
      method: 'GET',
      path: '/users',
      schema: 'get-users',
      auth: 'optional',
      handler: ({ principal, params }) => {
        if (!principal && !publicAccessEnabled(services)) throw unauthorized();
        const ids = params.user_ids as number[] | undefined;
        let targets: UserRecord[];
        if (ids) {
          targets = ids.map((id) => {
            const user = org.users.get(id);
            if (!user || user.isSystemBot) throw badRequest(`Invalid user ID: ${id}`);
            return user;
          });
        } else {
          targets = [...org.users.all()].filter((user) => !user.isSystemBot);
        }
        const clientGravatar = params.client_gravatar as boolean;
        const profiles = params.include_custom_profile_fields as boolean;
        const members = targets.map((target) => listedJson(target, principal, clientGravatar, profiles));
        return new RawJson(`"members":[${members.join(',')}]`);
      },
    },
    {
      method: 'GET',
      path: '/users/me',
      schema: 'get-own-user',
      auth: 'user',
      handler: (request) => {
        const user = me(request);
        const max = deps.maxMessageId(user.id);
        if (typeof max === 'number') return new RawJson(`${ownJson(user)},"max_message_id":${max}`);
        return max.then((id) => new RawJson(`${ownJson(user)},"max_message_id":${id}`));
      },
    },
    {
      method: 'GET',
      path: '/users/{user_id:int}',
      schema: 'get-user',
      auth: 'user',
      handler: (request) => {
        const viewer = me(request);
        const target = findUser(request.params.user_id as number);
        return { user: format(target, viewer, request.params.client_gravatar as boolean, request.params.include_custom_profile_fields as boolean) };
      },
    },
    {
      method: 'GET',
      path: '/users/{email:email}',
      schema: 'get-user-by-email',
      auth: 'user',
      handler: (request) => {
        const viewer = me(request);
        const email = request.params.email as string;
        const target = org.users.byEmail(email);
        // A real address only finds a user whose real address the viewer may see.
        const visible = target && (target.deliveryEmail.toLowerCase() !== email.toLowerCase() || canSeeEmail(viewer, target));
        if (!target || !visible || target.isSystemBot) throw badRequest('No such user');
        return { user: format(target, viewer, request.params.client_gravatar as boolean, request.params.include_custom_profile_fields as boolean) };
      },
    },
  ];
}
