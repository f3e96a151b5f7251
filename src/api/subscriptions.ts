/** `GET/POST/PATCH/DELETE /users/me/subscriptions`: joining, leaving and listing channels. */
import { ApiError } from '../domain/errors.js';
import type { Services } from '../services.js';
import * as schemas from '../../schemas/index.js';
import { me, type Params, type Request } from './route.js';
import { activeSubscriptions } from '../queries/subscription-format.js';
import * as actions from '../actions/subscriptions.js';

/** The channel options shared by `POST` and `PATCH /users/me/subscriptions`. */
function subscribeOptions(params: Params<typeof schemas.updateSubscriptions>, isDefault: boolean): actions.SubscribeOptions {
  return {
    inviteOnly: params.invite_only,
    isDefault,
    historyPublicToSubscribers: params.history_public_to_subscribers,
    authorizationErrorsFatal: params.authorization_errors_fatal,
  };
}

/** GET /users/me/subscriptions */
export function getSubscriptions(services: Services, request: Request<typeof schemas.getSubscriptions>) {
  return {
    subscriptions: activeSubscriptions(services, me(request), {
      includeSubscribers: request.params.include_subscribers,
      // As Zulip: null means "follows the user's global setting"; only /register converts.
      notificationSettingsNull: true,
    }),
  };
}

/** POST /users/me/subscriptions */
export function subscribe(services: Services, request: Request<typeof schemas.subscribe>) {
  return actions.subscribe(services, me(request), request.params.subscriptions, request.params.principals, subscribeOptions(request.params, request.params.is_default_stream));
}

/** DELETE /users/me/subscriptions */
export function unsubscribe(services: Services, request: Request<typeof schemas.unsubscribe>) {
  return actions.unsubscribe(services, me(request), request.params.subscriptions, request.params.principals);
}

/** PATCH /users/me/subscriptions */
export function updateSubscriptions(services: Services, request: Request<typeof schemas.updateSubscriptions>) {
  const { add, delete: remove, principals } = request.params;
  if (!add?.length && !remove?.length) throw new ApiError('BAD_REQUEST', 'Nothing to do. Specify at least one of "add" or "delete".');
  return actions.updateSubscriptions(services, me(request), add, remove, principals, subscribeOptions(request.params, false));
}
