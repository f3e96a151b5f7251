/**
 * Push device registration. `POST /mobile_push/register` (feature level 406) stores the
 * registration, then forwards it to the configured push bouncer (Zulip's
 * `POST /api/v1/remotes/push/e2ee/register`), and records what the bouncer said with a
 * `push_device` event, as Zulip 11's worker does. Zulip forwards from a queue worker and retries
 * for a day; here the request forwards it itself, and a registration the bouncer could not be
 * reached for stays `pending` until the client registers again (which forwards it again).
 * The deprecated token endpoints store or forget the token and, with a bouncer, register or
 * unregister it there in the request (`push/register`, `push/unregister`), as Zulip does.
 */
import { ApiError, badRequest } from '../domain/errors.js';
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
import { postToBouncer, realmUuid, userUuid, type BouncerResponse } from './push-bouncer.js';

export interface PushRegistration {
  tokenKind: TokenKind;
  pushAccountId: number;
  pushPublicKey: string;
  bouncerPublicKey: string;
  encryptedPushRegistration: string;
}

/** What the bouncer said: accepted (its device id), refused for good (its error code), or not reached. */
type BouncerAnswer = { status: 'active'; deviceId: number } | { status: 'failed'; errorCode: string } | { status: 'pending' };

/** Zulip's handle_register_push_device_to_bouncer: what the bouncer says of an end-to-end registration. */
async function forwardRegistration(services: Services, url: string, registration: PushRegistration): Promise<BouncerAnswer> {
  try {
    const { status, body } = await postToBouncer(services, url, 'push/e2ee/register', {
      realm_uuid: realmUuid(services),
      push_account_id: String(registration.pushAccountId),
      encrypted_push_registration: registration.encryptedPushRegistration,
      bouncer_public_key: registration.bouncerPublicKey,
    });
    if (status === 200 && body.result === 'success' && Number.isInteger(body.device_id)) return { status: 'active', deviceId: body.device_id as number };
    // A refusal of the registration itself is final; credentials, a realm the bouncer does not
    // know (403) and server errors are for the administrator to fix: the registration waits.
    if (status === 400 && typeof body.code === 'string') return { status: 'failed', errorCode: body.code };
    services.logger.error({ status, body }, 'push bouncer refused a device registration');
  } catch (error) {
    services.logger.error({ err: error }, 'push bouncer unreachable for a device registration');
  }
  return { status: 'pending' };
}

/**
 * Zulip's send_to_push_bouncer for the deprecated tokens: the bouncer's refusal is the client's
 * error (its message, as Zulip passes it on); a bouncer down or unreachable is a 502.
 */
async function forwardToken(services: Services, url: string, endpoint: 'push/register' | 'push/unregister', params: Record<string, string>): Promise<void> {
  let response: BouncerResponse;
  try {
    response = await postToBouncer(services, url, endpoint, params);
  } catch (error) {
    services.logger.error({ err: error }, 'push bouncer unreachable for a device token');
    throw new ApiError('BAD_REQUEST', `${error instanceof Error ? error.name : 'Error'} while trying to connect to push notification bouncer`, 502);
  }
  if (response.status >= 500) throw new ApiError('BAD_REQUEST', `Received ${response.status} from push notification bouncer`, 502);
  if (response.status >= 400) throw badRequest(typeof response.body.msg === 'string' ? response.body.msg : 'Error received from push notification bouncer');
}

/** What the bouncer is told of a user's deprecated token. */
function tokenParams(services: Services, user: UserRecord, tokenKind: TokenKind, token: string): Record<string, string> {
  return {
    user_uuid: userUuid(services, user.id),
    user_id: String(user.id),
    realm_uuid: realmUuid(services),
    token,
    // Zulip's PushDeviceToken kinds: 1 APNs, 2 FCM.
    token_kind: tokenKind === 'apns' ? '1' : '2',
  };
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
  const answer = await forwardRegistration(services, url, registration);
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

/**
 * POST /users/me/apns_device_token and /users/me/android_gcm_reg_id (deprecated): stores the token
 * (always, as Zulip does, so that the server knows the user has a device), then registers it with
 * the bouncer when one is configured.
 */
export async function addDeviceToken(services: Services, user: UserRecord, tokenKind: TokenKind, token: string, iosAppId: string | null): Promise<void> {
  checkHuman(user);
  checkDeviceToken(token, tokenKind);
  const record: TokenRecord = { kind: 'token', tokenKind, token, iosAppId };
  await services.write((tx) => pushDeviceBook(services).put(user.id, [[tokenKey(tokenKind, token), record]], tx));
  const url = services.config.pushBouncerUrl;
  if (url === undefined) return;
  await forwardToken(services, url, 'push/register', { ...tokenParams(services, user, tokenKind, token), ...(iosAppId === null ? {} : { ios_app_id: iosAppId }) });
}

/**
 * DELETE of the deprecated token endpoints: forgets the user's token, and unregisters it at the
 * bouncer when one is configured (which then decides whether the token exists, as in Zulip).
 */
export async function removeDeviceToken(services: Services, user: UserRecord, tokenKind: TokenKind, token: string): Promise<void> {
  checkHuman(user);
  checkDeviceToken(token, tokenKind);
  const url = services.config.pushBouncerUrl;
  await services.write((tx) => {
    const book = pushDeviceBook(services);
    if (!book.get(user.id, tokenKey(tokenKind, token))) {
      if (url === undefined) throw badRequest('Token does not exist');
      return;
    }
    book.drop(user.id, [tokenKey(tokenKind, token)], tx);
  });
  if (url !== undefined) await forwardToken(services, url, 'push/unregister', tokenParams(services, user, tokenKind, token));
}
