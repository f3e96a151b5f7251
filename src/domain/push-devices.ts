/**
 * Push registrations: the end-to-end encrypted device registrations of `POST /mobile_push/register`
 * (feature level 406), forwarded to a push bouncer, and the deprecated plain device tokens.
 */
import { ApiError, badRequest } from './errors.js';

export type TokenKind = 'fcm' | 'apns';
/** pending: not yet accepted by the bouncer; active: accepted (it gave a device id); failed: refused for good. */
export type RegistrationStatus = 'pending' | 'active' | 'failed';

export interface EncryptedRegistrationRecord {
  kind: 'e2ee';
  pushAccountId: number;
  tokenKind: TokenKind;
  pushPublicKey: string;
  bouncerPublicKey: string;
  /** Kept until the bouncer has accepted it, so that registering again can forward it again. */
  encryptedPushRegistration: string;
  status: RegistrationStatus;
  bouncerDeviceId: number | null;
  /** The bouncer's error code when it refused the registration. */
  errorCode: string | null;
}

/** A deprecated APNs or FCM token (`/users/me/apns_device_token`, `/users/me/android_gcm_reg_id`). */
export interface TokenRecord {
  kind: 'token';
  tokenKind: TokenKind;
  token: string;
  iosAppId: string | null;
}

export type PushRegistrationRecord = EncryptedRegistrationRecord | TokenRecord;

export const registrationKey = (pushAccountId: number) => `e2ee:${pushAccountId}`;
export const tokenKey = (kind: TokenKind, token: string) => `${kind}:${token}`;

export const pushServiceNotConfigured = () =>
  new ApiError('PUSH_SERVICE_NOT_CONFIGURED', 'Server is not configured to use push notification service.', 400);

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Standard RFC 4648 base64, padded, not empty. */
export function isBase64(text: string): boolean {
  return text.length > 0 && BASE64.test(text);
}

export function checkBase64(value: string, name: string): void {
  if (!isBase64(value)) throw badRequest(`Invalid ${name}`);
}

/** Zulip's `bytes.fromhex`: pairs of hex digits, whitespace allowed between them. */
const HEX_BYTES = /^(?:\s*[0-9a-fA-F]{2})*\s*$/;

/** Zulip's validate_token: not empty, at most 4096 characters, and an APNs token must be hex. */
export function checkDeviceToken(token: string, kind: TokenKind): void {
  if (token === '' || token.length > 4096) throw badRequest('Empty or invalid length token');
  if (kind === 'apns' && !HEX_BYTES.test(token)) throw badRequest('Invalid APNS token');
}

/** Zulip's human_users_only. */
export function checkHuman(user: { isBot: boolean }): void {
  if (user.isBot) throw badRequest('This endpoint does not accept bot requests.');
}
