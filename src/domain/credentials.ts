/** Passwords (scrypt hashes, never stored in clear) and API keys: generating and checking them. */
import { randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';

const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const FULL_COST = { N: 16384, r: 8, p: 1, keylen: 32 };
let SCRYPT = FULL_COST;

/**
 * The cost of new hashes. 'test' (N = 1024) is for the test suite's servers only, which create
 * eight demo passwords per fresh organization (0.4 CPU-s at full cost, hundreds of times a run);
 * a hash records its own N, so checking works whatever the setting. Production never calls this.
 */
export function setPasswordHashCost(cost: 'full' | 'test'): void {
  SCRYPT = cost === 'full' ? FULL_COST : { ...FULL_COST, N: 1024 };
}

/** 32 random alphanumeric characters, as Zulip's API keys are. */
export function generateApiKey(): string {
  let key = '';
  for (let i = 0; i < 32; i++) key += KEY_ALPHABET[randomInt(KEY_ALPHABET.length)];
  return key;
}

/** A readable random password for accounts created from the command line. */
export function generatePassword(): string {
  return randomBytes(12).toString('base64url');
}

function derive(password: string, salt: Buffer, params = SCRYPT): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, params.keylen, { N: params.N, r: params.r, p: params.p, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  if (!stored) {
    // Spend the same time as a real check, so the answer does not tell whether the user exists.
    await derive(password, randomBytes(16));
    return false;
  }
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt') return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p), keylen: expected.length });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Compares two secrets in time that depends only on their lengths. */
export function secretsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  if (left.length !== right.length) {
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}

/** Zulip's PASSWORD_MIN_LENGTH (also reported as `password_min_length`). */
export const MIN_PASSWORD_LENGTH = 6;

/** The one password rule: at least MIN_PASSWORD_LENGTH characters (code points, as Zulip counts them). */
export const isLongEnoughPassword = (password: string): boolean => [...password].length >= MIN_PASSWORD_LENGTH;

/** Zulip's PASSWORD_TOO_WEAK_ERROR. */
export const PASSWORD_TOO_WEAK = 'The password is too weak.';
