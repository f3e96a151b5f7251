/**
 * Gravatar URLs computed in the browser, as Zulip's clients do with `client_gravatar`: the server
 * then sends `avatar_url: null` for users whose email is public instead of a URL per user and per
 * message. Gravatar names an image by the MD5 of the trimmed, lower-cased email; Web Crypto has no
 * MD5, so spark-md5 computes it (on the UTF-8 bytes).
 */
import SparkMD5 from 'spark-md5';

/** The MD5 digest of a string's UTF-8 bytes, in lower-case hex. */
export function md5Hex(text: string): string {
  const bytes = new TextEncoder().encode(text);
  return SparkMD5.ArrayBuffer.hash(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
}

const urls = new Map<string, string>();

/** The Gravatar URL the server would have sent (same hash, same `d=identicon`, same version). */
export function gravatarUrl(email: string, version = 1): string {
  const key = `${email}\u0000${version}`;
  let url = urls.get(key);
  if (url === undefined) {
    url = `https://secure.gravatar.com/avatar/${md5Hex(email.trim().toLowerCase())}?d=identicon&version=${version}`;
    if (urls.size > 10_000) urls.clear();
    urls.set(key, url);
  }
  return url;
}

/**
 * The image to show for a sender: the URL sent with the message or the user, else (null: the
 * server left Gravatar to the client) Gravatar's from the email; undefined when no URL was sent at
 * all (`user_avatar_url_field_optional` lets the server omit it for long-idle users): the initial shows.
 */
export function avatarSource(
  sent: string | null | undefined,
  user: { email: string; avatar_url?: string | null; avatar_version?: number } | undefined,
  email: string | undefined,
): string | undefined {
  const url = sent !== undefined ? sent : user?.avatar_url;
  if (url !== null) return url;
  const address = email ?? user?.email;
  return address ? gravatarUrl(address, user?.avatar_version ?? 1) : undefined;
}
