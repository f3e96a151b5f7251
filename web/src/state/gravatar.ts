/**
 * Gravatar URLs computed in the browser, as Zulip's clients do with `client_gravatar`: the server
 * then sends `avatar_url: null` for users whose email is public instead of a URL per user and per
 * message. Gravatar names an image by the MD5 of the trimmed, lower-cased email; Web Crypto has no
 * MD5, so it is here (RFC 1321, on the UTF-8 bytes).
 */

const SHIFTS = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];
const K = Array.from({ length: 64 }, (_, i) => Math.floor(Math.abs(Math.sin(i + 1)) * 2 ** 32) >>> 0);

/** The MD5 digest of a string's UTF-8 bytes, in lower-case hex. */
export function md5Hex(text: string): string {
  const bytes = new TextEncoder().encode(text);
  const blocks = ((bytes.length + 8) >>> 6) + 1;
  const words = new Uint32Array(blocks * 16);
  for (let i = 0; i < bytes.length; i++) words[i >> 2]! |= bytes[i]! << ((i % 4) * 8);
  words[bytes.length >> 2]! |= 0x80 << ((bytes.length % 4) * 8);
  words[blocks * 16 - 2] = (bytes.length * 8) >>> 0;
  words[blocks * 16 - 1] = Math.floor(bytes.length / 0x20000000);
  let a0 = 0x67452301, b0 = 0xefcdab89, c0 = 0x98badcfe, d0 = 0x10325476;
  for (let block = 0; block < blocks; block++) {
    let a = a0, b = b0, c = c0, d = d0;
    for (let i = 0; i < 64; i++) {
      const round = i >> 4;
      const f = round === 0 ? (b & c) | (~b & d) : round === 1 ? (d & b) | (~d & c) : round === 2 ? b ^ c ^ d : c ^ (b | ~d);
      const g = round === 0 ? i : round === 1 ? (5 * i + 1) % 16 : round === 2 ? (3 * i + 5) % 16 : (7 * i) % 16;
      const sum = (a + f + K[i]! + words[block * 16 + g]!) >>> 0;
      const shift = SHIFTS[round * 4 + (i % 4)]!;
      a = d;
      d = c;
      c = b;
      b = (b + ((sum << shift) | (sum >>> (32 - shift)))) >>> 0;
    }
    a0 = (a0 + a) >>> 0;
    b0 = (b0 + b) >>> 0;
    c0 = (c0 + c) >>> 0;
    d0 = (d0 + d) >>> 0;
  }
  return [a0, b0, c0, d0].map((w) => Array.from({ length: 4 }, (_, i) => ((w >>> (i * 8)) & 0xff).toString(16).padStart(2, '0')).join('')).join('');
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
