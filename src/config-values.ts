/**
 * Reading one setting from the environment, strictly: a value that is not allowed is a
 * ConfigError naming the variable, the value and what is allowed (main prints it as one line
 * and exits with 2), never a default silently taken instead nor a library's error later.
 */
import { isIP } from 'node:net';

/** A setting with a value it cannot take, or a resource a setting names that cannot be used. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    readonly value: string,
    readonly allowed: string,
  ) {
    super(`${variable}=${JSON.stringify(value)} is not usable: ${allowed}`);
    this.name = 'ConfigError';
  }
}

export type Env = Record<string, string | undefined>;

const present = (raw: string | undefined): raw is string => raw !== undefined && raw !== '';

/** A whole number within [min, max]. */
export function integer(env: Env, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name];
  if (!present(raw)) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || value < min || value > max) throw new ConfigError(name, raw, `a whole number from ${min} to ${max}`);
  return value;
}

/** A number of seconds, fractions allowed, within [min, max]. */
export function seconds(env: Env, name: string, fallback: number, min = 0, max = 365 * 24 * 3600): number {
  const raw = env[name];
  if (!present(raw)) return fallback;
  const value = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw.trim()) || value < min || value > max) throw new ConfigError(name, raw, `a number of seconds from ${min} to ${max}`);
  return value;
}

const TRUE = ['1', 'true', 'yes', 'on'];
const FALSE = ['0', 'false', 'no', 'off'];

export function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (!present(raw)) return fallback;
  const word = raw.trim().toLowerCase();
  if (TRUE.includes(word)) return true;
  if (FALSE.includes(word)) return false;
  throw new ConfigError(name, raw, `1 or 0 (also true/false, yes/no, on/off)`);
}

/** An http(s) URL without query or fragment, returned without a trailing slash. */
export function httpUrl(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (!present(raw)) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, raw, 'an http:// or https:// URL, such as https://chat.example.com');
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.search !== '' || url.hash !== '' || url.username !== '') {
    throw new ConfigError(name, raw, 'an http:// or https:// URL without credentials, query or fragment, such as https://chat.example.com');
  }
  return raw.replace(/\/+$/, '');
}

/** An address to listen on: an IP address or a host name. */
export function host(env: Env, name: string, fallback: string): string {
  const raw = env[name];
  if (!present(raw)) return fallback;
  if (isIP(raw) !== 0 || /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(raw)) return raw;
  throw new ConfigError(name, raw, 'an IP address (127.0.0.1, 0.0.0.0, ::) or a host name');
}

/** One of a fixed set of words. */
export function oneOf<T extends string>(env: Env, name: string, fallback: T, allowed: readonly T[]): T {
  const raw = env[name];
  if (!present(raw)) return fallback;
  if ((allowed as readonly string[]).includes(raw)) return raw as T;
  throw new ConfigError(name, raw, `one of ${allowed.join(', ')}`);
}
