/** `GET/POST/PATCH/DELETE /users/me/subscriptions`: joining, leaving and listing channels. */
import { ApiError } from '../domain/errors.js';
import type { Services } from '../services.js';
import { me, type ApiRoute } from './route.js';
import { activeSubscriptions } from '../queries/subscription-format.js';
import { SubscribeOptions, SubscriptionRequest, subscribe, unsubscribe, updateSubscriptions } from '../actions/subscriptions.js';

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
      handler: (request) => subscribe(services, me(request), request.params.subscriptions, request.params.principals, subscribeOptions(request.params)),
    },
    {
      method: 'DELETE',
      path: '/users/me/subscriptions',
      schema: 'unsubscribe',
      auth: 'user',
      handler: (request) => unsubscribe(services, me(request), request.params.subscriptions, request.params.principals),
    },
    {
      method: 'PATCH',
      path: '/users/me/subscriptions',
      schema: 'update-subscriptions',
      auth: 'user',
      handler: (request) => {
        const { add, delete: remove, principals } = request.params as { add?: SubscriptionRequest[]; delete?: string[]; principals?: (string | number)[] };
        if (!add?.length && !remove?.length) throw new ApiError('BAD_REQUEST', 'Nothing to do. Specify at least one of "add" or "delete".');
        return updateSubscriptions(services, me(request), add, remove, principals, { ...subscribeOptions(request.params), isDefault: false });
      },
    },
  ];
}
