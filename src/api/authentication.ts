/** `POST /fetch_api_key`: an API key for a password, with Zulip's limit on failed attempts. */
import { ApiError } from '../domain/errors.js';
import { isValidEmail } from '../domain/users.js';
import { RateLimiter, rateLimitHit } from '../http/rate-limit.js';
import type { Services } from '../services.js';
import { userByPassword } from '../queries/credentials.js';
import * as schemas from '../../schemas/index.js';
import type { Request } from './route.js';

/** Failed logins per server (Services), kept apart from the record of who is signed in. */
const failuresOf = new WeakMap<Services, RateLimiter>();

/** Zulip's authenticate_by_username rule: 5 failed attempts per username per 30 minutes. */
function loginFailures(services: Services): RateLimiter {
  let failures = failuresOf.get(services);
  if (!failures) failuresOf.set(services, (failures = new RateLimiter({ max: 5, windowSeconds: 1800 }, () => services.clock.now() / 1000)));
  return failures;
}

/** POST /fetch_api_key */
export async function fetchApiKey(services: Services, { params }: Request<typeof schemas.fetchApiKey>) {
  const failures = loginFailures(services);
  const username = params.username.trim();
  if (!isValidEmail(username)) throw new ApiError('BAD_REQUEST', 'Enter a valid email address.');
  if (services.config.rateLimit) {
    const state = failures.peek(username);
    if (!state.allowed) throw rateLimitHit(state.retryAfter);
  }
  const user = await userByPassword(services, username, params.password);
  if (!user) {
    if (services.config.rateLimit) failures.hit(username);
    throw new ApiError('AUTHENTICATION_FAILED', 'Your username or password is incorrect', 401);
  }
  failures.reset(username);
  return { api_key: user.apiKey, email: user.deliveryEmail, user_id: user.id };
}
