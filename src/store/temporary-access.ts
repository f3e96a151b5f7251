/**
 * Short-lived URLs for uploaded files (Zulip's `/user_uploads/temporary/{token}/{filename}`):
 * the token names the path id and when it expires, signed with a key that lives as long as
 * the process (a restart ends every such URL, which live a minute anyway).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Zulip's SIGNED_ACCESS_TOKEN_VALIDITY_IN_SECONDS. */
export const TEMPORARY_URL_SECONDS = 60;

export class TemporaryAccess {
  private readonly key = randomBytes(32);

  /** A token for `pathId` valid until `expiresAt` (unix seconds). */
  sign(pathId: string, expiresAt: number): string {
    const payload = Buffer.from(`${expiresAt}:${pathId}`).toString('base64url');
    return `${payload}.${this.mac(payload)}`;
  }

  /** The path id a token names, if it is ours and has not expired. */
  verify(token: string, now: number): string | undefined {
    const dot = token.indexOf('.');
    if (dot < 0) return undefined;
    const payload = token.slice(0, dot);
    const given = Buffer.from(token.slice(dot + 1));
    const expected = Buffer.from(this.mac(payload));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    const text = Buffer.from(payload, 'base64url').toString();
    const colon = text.indexOf(':');
    const expiresAt = Number(text.slice(0, colon));
    if (colon < 0 || !Number.isFinite(expiresAt) || expiresAt < now) return undefined;
    return text.slice(colon + 1);
  }

  private mac(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }
}
