/** `GET/POST/PATCH/DELETE /users/me/subscriptions`: joining, leaving and listing channels. */
import type { ChannelRecord } from '../domain/channel-record.js';
import { checkChannelName, isHexColor } from '../domain/channels.js';
import { ApiError, badRequest } from '../domain/errors.js';
import { realmGroupSetting } from '../domain/realm.js';
import { settingIncludes } from '../domain/groups.js';
import { isAdmin, isGuest } from '../domain/roles.js';
import type { UserRecord } from '../domain/users.js';
import { codePointLength } from '../domain/topics.js';
import { LIMITS } from '../domain/versions.js';
import type { Services } from '../services.js';
import type { Transaction } from '../store/transaction.js';
import { channelReadable } from '../queries/channel-access.js';
import { me, type ApiRoute } from './route.js';
import { activeSubscriptions } from '../queries/subscription-format.js';
import { createChannel, subscribeUsers, unsubscribeUsers } from '../actions/subscriptions.js';

interface SubscriptionRequest {
  name: string;
  description?: string;
  color?: string;
}

function resolvePrincipals(services: Services, principals: (string | number)[] | undefined, self: UserRecord): UserRecord[] {
  if (principals === undefined) return [self];
  if (principals.length === 0) throw badRequest('principals cannot be blank');
  return principals.map((principal) => {
    const user = typeof principal === 'number' ? services.org.users.get(principal) : services.org.users.byEmail(principal);
    if (!user || !user.isActive || user.isSystemBot) throw badRequest('No such user');
    return user;
  });
}

function mayHold(services: Services, user: UserRecord, setting: string): boolean {
  return settingIncludes(user.id, realmGroupSetting(services.org.realm, setting), services.org.groups);
}

export interface SubscribeOptions {
  inviteOnly: boolean;
  isDefault: boolean;
  historyPublicToSubscribers?: boolean;
  authorizationErrorsFatal: boolean;
}

/** Subscribes in `tx` (creating missing channels); shared by POST and the legacy PATCH. */
function subscribe(services: Services, tx: Transaction, actor: UserRecord, requests: SubscriptionRequest[], principals: (string | number)[] | undefined, options: SubscribeOptions) {
  if (isGuest(actor.role)) throw badRequest('Not allowed for guest users');
  const { org } = services;
  const channels: ChannelRecord[] = [];
  const created = new Set<number>();
  const unauthorized: string[] = [];
  const colors = new Map<number, string>();
  for (const [index, request] of requests.entries()) {
    const name = checkChannelName(request.name, LIMITS.maxStreamNameLength);
    const description = (request.description ?? '').replace(/\n/g, ' ');
    if (codePointLength(description) > LIMITS.maxStreamDescriptionLength) {
      throw badRequest(`subscriptions[${index}]["description"] is too long (limit: ${LIMITS.maxStreamDescriptionLength} characters)`);
    }
    if (request.color !== undefined && !isHexColor(request.color)) {
      throw badRequest(`subscriptions[${index}]["color"] is not a valid hex color code`);
    }
    let channel = org.channels.byName(name);
    if (!channel) {
      const needed = options.inviteOnly ? 'can_create_private_channel_group' : 'can_create_public_channel_group';
      if (!mayHold(services, actor, needed)) throw badRequest('Insufficient permission');
      if (options.isDefault && !isAdmin(actor.role)) throw badRequest('Insufficient permission');
      if (options.isDefault && options.inviteOnly) throw badRequest('A default channel cannot be private.');
      channel = createChannel(services, tx, {
        name,
        description,
        inviteOnly: options.inviteOnly,
        isDefault: options.isDefault,
        historyPublicToSubscribers: options.historyPublicToSubscribers,
        creatorId: actor.id,
      });
      created.add(channel.id);
    } else if (!channelReadable(services, actor, channel)) {
      if (options.authorizationErrorsFatal) throw badRequest(`Unable to access channel (${channel.name}).`);
      unauthorized.push(channel.name);
      continue;
    }
    if (!channels.some((c) => c.id === channel!.id)) channels.push(channel);
    if (request.color !== undefined) colors.set(channel.id, request.color);
  }
  const users = resolvePrincipals(services, principals, actor);
  const others = users.some((user) => user.id !== actor.id);
  if (others) {
    const allowed = isAdmin(actor.role) || mayHold(services, actor, 'can_add_subscribers_group');
    if (!allowed && channels.some((channel) => !created.has(channel.id))) throw badRequest('Insufficient permission');
  }
  const result = subscribeUsers(services, tx, users, channels, colors);
  const response: Record<string, unknown> = { subscribed: result.subscribed, already_subscribed: result.alreadySubscribed };
  if (!options.authorizationErrorsFatal) response.unauthorized = unauthorized;
  return response;
}

/** Unsubscribes in `tx`; shared by DELETE and the legacy PATCH. */
function unsubscribe(services: Services, tx: Transaction, actor: UserRecord, names: string[], principals: (string | number)[] | undefined) {
  const { org } = services;
  const missing = names.filter((name) => !org.channels.byName(name.trim()));
  if (missing.length > 0) throw badRequest(`Channel(s) (${missing.join(', ')}) do not exist`);
  const channels = names.map((name) => org.channels.byName(name.trim())!);
  const users = resolvePrincipals(services, principals, actor);
  if (users.some((user) => user.id !== actor.id && user.botOwnerId !== actor.id) && !isAdmin(actor.role)) {
    throw badRequest('Insufficient permission');
  }
  const result = unsubscribeUsers(services, tx, users, channels);
  return { removed: result.removed, not_removed: result.notRemoved };
}

export function subscriptionRoutes(services: Services): ApiRoute[] {
  const subscribeOptions = (params: Record<string, any>): SubscribeOptions => ({
    inviteOnly: params.invite_only,
    isDefault: params.is_default_stream,
    historyPublicToSubscribers: params.history_public_to_subscribers,
    authorizationErrorsFatal: params.authorization_errors_fatal,
  });
  return [
    {
      method: 'GET',
      path: '/users/me/subscriptions',
      schema: 'get-subscriptions',
      auth: 'user',
      handler: (request) => ({
        subscriptions: activeSubscriptions(services, me(request), {
          includeSubscribers: request.params.include_subscribers,
          // As Zulip: null means "follows the user's global setting"; only /register converts.
          notificationSettingsNull: true,
        }),
      }),
    },
    {
      method: 'POST',
      path: '/users/me/subscriptions',
      schema: 'subscribe',
      auth: 'user',
      handler: (request) => services.write((tx) => subscribe(services, tx, me(request), request.params.subscriptions, request.params.principals, subscribeOptions(request.params))),
    },
    {
      method: 'DELETE',
      path: '/users/me/subscriptions',
      schema: 'unsubscribe',
      auth: 'user',
      handler: (request) => services.write((tx) => unsubscribe(services, tx, me(request), request.params.subscriptions, request.params.principals)),
    },
    {
      method: 'PATCH',
      path: '/users/me/subscriptions',
      schema: 'update-subscriptions',
      auth: 'user',
      handler: (request) => {
        const { add, delete: remove, principals } = request.params as { add?: SubscriptionRequest[]; delete?: string[]; principals?: (string | number)[] };
        if (!add?.length && !remove?.length) throw new ApiError('BAD_REQUEST', 'Nothing to do. Specify at least one of "add" or "delete".');
        const user = me(request);
        // One write: a refused removal also undoes the additions.
        return services.write((tx) => {
          const response: Record<string, unknown> = {};
          if (add?.length) Object.assign(response, subscribe(services, tx, user, add, principals, { ...subscribeOptions(request.params), isDefault: false }));
          if (remove?.length) Object.assign(response, unsubscribe(services, tx, user, remove, principals));
          return response;
        });
      },
    },
  ];
}
