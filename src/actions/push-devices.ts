/**
 * Push device registration. `POST /mobile_push/register` (feature level 406) stores the
 * registration, then forwards it to the configured push bouncer (Zulip's
 * `POST /api/v1/remotes/push/e2ee/register`), and records what the bouncer said with a
 * `push_device` event, as Zulip 11's worker does. Zulip forwards from a queue worker and retries
 * for a day; here the request forwards it itself, and a registration the bouncer could not be
 * reached for stays `pending` until the client registers again (which forwards it again).
 * The deprecated token endpoints only store or forget the token.
 */
import { createHash } from 'node:crypto';
import { badRequest } from '../domain/errors.js';
import {
  checkBase64,
  checkDeviceToken,
  checkHuman,
  pushServiceNotConfigured,
  registrationKey,
  tokenKey,
  type EncryptedRegistrationRecord,
  type TokenKind,
  type TokenRecord,
} from '../domain/push-devices.js';
import type { UserRecord } from '../domain/users.js';
import { pushDeviceBook } from '../queries/push-devices.js';
import type { Services } from '../services.js';

export interface PushRegistration {
  tokenKind: TokenKind;
  pushAccountId: number;
  pushPublicKey: string;
  bouncerPublicKey: string;
  encryptedPushRegistration: string;
}

/** What the bouncer said: accepted (its device id), refused for good (its error code), or not reached. */
type BouncerAnswer = { status: 'active'; deviceId: number } | { status: 'failed'; errorCode: string } | { status: 'pending' };

/**
 * The organization's UUID as the bouncer knows it. Parley has no realm UUID of its own, so one
 * is derived from this server's bouncer registration and the organization id: stable across
 * restarts, different for each organization and server.
 */
function realmUuid(services: Services): string {
  const hex = createHash('sha256').update(`${services.config.pushBouncerServerUuid}:${services.org.id}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Zulip's send_to_push_bouncer for `push/e2ee/register`. */
async function forwardToBouncer(services: Services, url: string, registration: PushRegistration): Promise<BouncerAnswer> {
  const { config } = services;
  const body = new URLSearchParams({
    realm_uuid: realmUuid(services),
    push_account_id: String(registration.pushAccountId),
    encrypted_push_registration: registration.encryptedPushRegistration,
    bouncer_public_key: registration.bouncerPublicKey,
  });
  const auth = Buffer.from(`${config.pushBouncerServerUuid}:${config.pushBouncerServerKey}`).toString('base64');
  try {
    const response = await fetch(`${url}/api/v1/remotes/push/e2ee/register`, {
      method: 'POST',
      headers: { authorization: `Basic ${auth}`, 'content-type': 'application/x-www-form-urlencoded' },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    const answer = (await response.json().catch(() => ({}))) as { result?: string; device_id?: unknown; code?: unknown };
    if (response.ok && answer.result === 'success' && Number.isInteger(answer.device_id)) return { status: 'active', deviceId: answer.device_id as number };
    // A refusal of the registration itself is final; credentials, a realm the bouncer does not
    // know (403) and server errors are for the administrator to fix: the registration waits.
    if (response.status === 400 && typeof answer.code === 'string') return { status: 'failed', errorCode: answer.code };
    services.logger.error({ status: response.status, answer }, 'push bouncer refused a device registration');
  } catch (error) {
    services.logger.error({ err: error }, 'push bouncer unreachable for a device registration');
  }
  return { status: 'pending' };
}

/** POST /mobile_push/register */
export async function registerPushDevice(services: Services, user: UserRecord, registration: PushRegistration): Promise<void> {
  checkHuman(user);
  const url = services.config.pushBouncerUrl;
  if (url === undefined) throw pushServiceNotConfigured();
  checkBase64(registration.pushPublicKey, 'push_public_key');
  checkBase64(registration.encryptedPushRegistration, 'encrypted_push_registration');
  const book = pushDeviceBook(services);
  const key = registrationKey(registration.pushAccountId);
  const stored = book.get(user.id, key);
  // Registering an accepted device again changes nothing (Zulip's idempotency check).
  if (stored?.kind === 'e2ee' && stored.status === 'active') return;
  const record: EncryptedRegistrationRecord = {
    kind: 'e2ee',
    pushAccountId: registration.pushAccountId,
    tokenKind: registration.tokenKind,
    pushPublicKey: registration.pushPublicKey,
    bouncerPublicKey: registration.bouncerPublicKey,
    encryptedPushRegistration: registration.encryptedPushRegistration,
    status: 'pending',
    bouncerDeviceId: null,
    errorCode: null,
  };
  await services.write((tx) => book.put(user.id, [[key, record]], tx));
  const answer = await forwardToBouncer(services, url, registration);
  if (answer.status === 'pending') return;
  await services.write((tx) => {
    const current = book.get(user.id, key);
    // Registered again (or removed) while the bouncer answered: that request's answer counts.
    if (current?.kind !== 'e2ee' || current.encryptedPushRegistration !== record.encryptedPushRegistration) return;
    const outcome: EncryptedRegistrationRecord = answer.status === 'active'
      ? { ...current, status: 'active', bouncerDeviceId: answer.deviceId, errorCode: null }
      : { ...current, status: 'failed', errorCode: answer.errorCode };
    book.put(user.id, [[key, outcome]], tx);
    const event: Record<string, unknown> = { type: 'push_device', push_account_id: String(registration.pushAccountId), status: outcome.status };
    if (answer.status === 'failed') event.error_code = answer.errorCode;
    tx.emit(event, [user.id]);
  });
}

/** POST /users/me/apns_device_token and /users/me/android_gcm_reg_id (deprecated): stores the token. */
export async function addDeviceToken(services: Services, user: UserRecord, tokenKind: TokenKind, token: string, iosAppId: string | null): Promise<void> {
  checkHuman(user);
  checkDeviceToken(token, tokenKind);
  const record: TokenRecord = { kind: 'token', tokenKind, token, iosAppId };
  await services.write((tx) => pushDeviceBook(services).put(user.id, [[tokenKey(tokenKind, token), record]], tx));
}

/** DELETE of the deprecated token endpoints: forgets the user's token. */
export async function removeDeviceToken(services: Services, user: UserRecord, tokenKind: TokenKind, token: string): Promise<void> {
  checkHuman(user);
  checkDeviceToken(token, tokenKind);
  await services.write((tx) => {
    const book = pushDeviceBook(services);
    if (!book.get(user.id, tokenKey(tokenKind, token))) throw badRequest('Token does not exist');
    book.drop(user.id, [tokenKey(tokenKind, token)], tx);
  });
}
