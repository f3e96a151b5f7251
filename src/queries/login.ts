/**
 * A password login with Zulip's limit on failures (authenticate_by_username: 5 failed attempts
 * per username per 30 minutes). The failures are counted per server, in memory, apart from the
 * record of who is signed in.
 */
import { ApiError } from '../domain/errors.js';
import { RateLimiter, rateLimitHit } from '../domain/rate-limit.js';
import { isValidEmail, type UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import { userByPassword } from './credentials.js';

/** Failed logins per server (Services). */
const failuresOf = new WeakMap<Services, RateLimiter>();

function loginFailures(services: Services): RateLimiter {
  let failures = failuresOf.get(services);
  if (!failures) failuresOf.set(services, (failures = new RateLimiter({ max: 5, windowSeconds: 1800 }, () => services.clock.now() / 1000)));
  return failures;
}

/** The user whose email and password these are, or Zulip's refusal (a bad address, too many failures, a wrong password). */
export async function passwordLogin(services: Services, email: string, password: string): Promise<UserRecord> {
  const failures = loginFailures(services);
  const username = email.trim();
  if (!isValidEmail(username)) throw new ApiError('BAD_REQUEST', 'Enter a valid email address.');
  if (services.config.rateLimit) {
    const state = failures.peek(username);
    if (!state.allowed) throw rateLimitHit(state.retryAfter);
  }
  const user = await userByPassword(services, username, password);
  if (!user) {
    if (services.config.rateLimit) failures.hit(username);
    throw new ApiError('AUTHENTICATION_FAILED', 'Your username or password is incorrect', 401);
  }
  failures.reset(username);
  return user;
}
