/** The route and request types of this API, whose principal is a user or bot record. */
import type { ApiRequest, Route } from '../http/front.js';
import type { UserRecord } from '../domain/users.js';

export type ApiRoute = Route<UserRecord>;
export type Request = ApiRequest<UserRecord>;

/** The authenticated user of a route declared with `auth: 'user'`. */
export function me(request: Request): UserRecord {
  if (!request.principal) throw new Error(`route ${request.method} ${request.path} used without authentication`);
  return request.principal;
}
