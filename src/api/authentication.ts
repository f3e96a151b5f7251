/**
 * HTTP Basic authentication (`email:api_key`) and `POST /fetch_api_key`. Keys are compared
 * in constant time; a wrong password takes as long, and says as much, whether or not the user
 * exists.
 */
import { ApiError } from '../domain/errors.js';
import { secretsEqual, verifyPassword } from '../domain/credentials.js';
import { isValidEmail, type UserRecord } from '../domain/users.js';
import { RateLimiter, rateLimitHit } from '../http/rate-limit.js';
import type { Services } from '../services.js';
import * as schemas from '../schemas/index.js';
import type { Request } from './route.js';

const API_KEY_FORMAT = /^[A-Za-z0-9]{32}$/;
const NOT_LOGGED_IN = 'Not logged in: API authentication or user session required';

/**
 * Every credential error of the REST API, as Zulip's authenticated_rest_api_view sends it: the
 * underlying reason (invalid or malformed key, deactivated account or organization) is only the
 * message; the code is always UNAUTHORIZED, with status 401 and a Basic challenge.
 */
export function unauthorized(msg = NOT_LOGGED_IN): ApiError {
  return new ApiError('UNAUTHORIZED', msg, 401, {}, { 'WWW-Authenticate': 'Basic realm="zulip"' });
}

/** Decoded `Authorization` headers, so that a client's repeated header is decoded once. */
class CredentialCache {
  private readonly entries = new Map<string, { email: string; key: string }>();
  constructor(private readonly capacity = 10000) {}

  decode(header: string): { email: string; key: string } {
    const cached = this.entries.get(header);
    if (cached) return cached;
    const parts = header.trim().split(/\s+/);
    if (parts.length !== 2) throw malformedHeader();
    if (parts[0].toLowerCase() !== 'basic') throw new ApiError('BAD_REQUEST', 'This endpoint requires HTTP basic authentication.');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(parts[1])) throw malformedHeader();
    const fields = Buffer.from(parts[1], 'base64').toString('utf8').split(':');
    if (fields.length !== 2) throw malformedHeader();
    const credentials = { email: fields[0].trim(), key: fields[1].trim() };
    if (this.entries.size >= this.capacity) this.entries.clear();
    this.entries.set(header, credentials);
    return credentials;
  }
}

const malformedHeader = () => unauthorized('Invalid authorization header for basic auth');

export function basicAuthenticator(services: Services): (authorization: string) => UserRecord {
  const cache = new CredentialCache();
  return (authorization) => {
    if (authorization === '') throw unauthorized();
    const credentials = cache.decode(authorization);
    if (!API_KEY_FORMAT.test(credentials.key)) throw unauthorized('Malformed API key');
    const { org } = services;
    const user = org.users.byEmail(credentials.email);
    if (!user || !secretsEqual(credentials.key, user.apiKey)) throw unauthorized('Invalid API key');
    if (org.realm.deactivated) throw unauthorized('This organization has been deactivated');
    if (!user.isActive) throw unauthorized('Account is deactivated');
    return user;
  };
}

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
  const password = params.password;
  if (!isValidEmail(username)) throw new ApiError('BAD_REQUEST', 'Enter a valid email address.');
  if (services.config.rateLimit) {
    const state = failures.peek(username);
    if (!state.allowed) {
      throw rateLimitHit(state.retryAfter);
    }
  }
  const { org } = services;
  const user = org.users.byEmail(username);
  // As Zulip: a deactivated account or organization is reported whatever the password, and
  // with its own code (fetch_api_key is not behind the REST authentication that wraps it).
  if (user && !user.isActive) throw new ApiError('USER_DEACTIVATED', 'Account is deactivated', 401);
  if (user && org.realm.deactivated) throw new ApiError('REALM_DEACTIVATED', 'This organization has been deactivated', 401);
  const ok = password !== '' && (await verifyPassword(password, user && !user.isBot ? user.passwordHash : null));
  if (!ok || !user) {
    if (services.config.rateLimit) failures.hit(username);
    throw new ApiError('AUTHENTICATION_FAILED', 'Your username or password is incorrect', 401);
  }
  failures.reset(username);
  const current = org.users.get(user.id)!;
  return { api_key: current.apiKey, email: current.deliveryEmail, user_id: current.id };
}
