/**
 * Who is asking: HTTP Basic credentials (`email:api_key`, compared in constant time) and a
 * password login. A wrong password takes as long, and says as much, whether or not the user exists.
 */
import { ApiError } from '../domain/errors.js';
import { secretsEqual, verifyPassword } from '../domain/credentials.js';
import { BotType, type UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';

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

export function basicAuthenticator(services: Services): (authorization: string, route?: { incomingWebhookBots: boolean }) => UserRecord {
  const cache = new CredentialCache();
  /**
   * Headers that named a user with the right key, with that user's record: while the record is
   * still the user's (a new key, a deactivation or any change replaces it), the same header needs
   * no decoding, lookup or comparison again (Zulip caches its key-to-user lookup likewise).
   */
  const verified = new Map<string, UserRecord>();
  return (authorization, route) => {
    const known = verified.get(authorization);
    if (known !== undefined && services.org.users.get(known.id) === known && known.isActive && !services.org.realm.deactivated && known.botType !== BotType.INCOMING_WEBHOOK) {
      return known;
    }
    const user = checkCredentials(services, cache, authorization, route);
    if (verified.size >= 10000) verified.clear();
    verified.set(authorization, user);
    return user;
  };
}

/** Decodes, looks up and compares the credentials of one header (Zulip's checks, in its order). */
function checkCredentials(services: Services, cache: CredentialCache, authorization: string, route: { incomingWebhookBots: boolean } | undefined): UserRecord {
  if (authorization === '') throw unauthorized();
  const credentials = cache.decode(authorization);
  if (!API_KEY_FORMAT.test(credentials.key)) throw unauthorized('Malformed API key');
  const { org } = services;
  const user = org.users.byEmail(credentials.email);
  if (!user || !secretsEqual(credentials.key, user.apiKey)) throw unauthorized('Invalid API key');
  if (org.realm.deactivated) throw unauthorized('This organization has been deactivated');
  if (!user.isActive) throw unauthorized('Account is deactivated');
  // Incoming webhook bots may only send (Zulip's `allow_incoming_webhooks`).
  if (user.botType === BotType.INCOMING_WEBHOOK && route && !route.incomingWebhookBots) throw unauthorized('This API is not available to incoming webhook bots.');
  return user;
}

/**
 * The user a password login names, or undefined when the password is wrong (or nobody has that
 * address). As Zulip: a deactivated account or organization is reported whatever the password,
 * with its own code (fetch_api_key is not behind the REST authentication that wraps it).
 */
export async function userByPassword(services: Services, username: string, password: string): Promise<UserRecord | undefined> {
  const { org } = services;
  const user = org.users.byEmail(username);
  if (user && !user.isActive) throw new ApiError('USER_DEACTIVATED', 'Account is deactivated', 401);
  if (user && org.realm.deactivated) throw new ApiError('REALM_DEACTIVATED', 'This organization has been deactivated', 401);
  const ok = password !== '' && (await verifyPassword(password, user && !user.isBot ? user.passwordHash : null));
  return ok && user ? org.users.get(user.id) : undefined;
}
