/**
 * IP addresses and CIDR ranges (IPv4 and IPv6), for PARLEY_TRUSTED_PROXIES: which peers may
 * tell the client's address in X-Forwarded-For. Addresses are compared as 128-bit numbers,
 * IPv4 as IPv4-mapped IPv6 (::ffff:a.b.c.d), so that a range matches however the socket
 * reports the peer.
 */
import { isIP } from 'node:net';

export interface IpRange {
  base: bigint;
  /** Leading bits that must match (0–128). */
  bits: number;
  text: string;
}

const V4_MAPPED = 0xffffn << 32n;

function v4ToBigint(text: string): bigint {
  return text.split('.').reduce((sum, part) => (sum << 8n) | BigInt(Number(part)), 0n);
}

function v6ToBigint(text: string): bigint {
  let head = text;
  // A trailing dotted quad (::ffff:1.2.3.4) stands for the last two groups.
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (quad) {
    const v4 = v4ToBigint(quad[1]!);
    head = text.slice(0, -quad[1]!.length) + `${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const split = (part: string) => (part === '' ? [] : part.split(':'));
  let groups: string[];
  if (head.includes('::')) {
    const [left, right] = head.split('::') as [string, string];
    const [l, r] = [split(left), split(right)];
    groups = [...l, ...Array<string>(8 - l.length - r.length).fill('0'), ...r];
  } else {
    groups = split(head);
  }
  return groups.reduce((sum, group) => (sum << 16n) | BigInt(parseInt(group, 16)), 0n);
}

/**
 * An address as a 128-bit number, IPv4 mapped into IPv6; undefined when it is not an address.
 * Accepts what sockets and proxies report: dotted IPv4, IPv6 (zone ids dropped), and uWS's
 * full-length IPv6 text (0000:0000:...:ffff:7f00:0001).
 */
export function parseIp(text: string): bigint | undefined {
  const bare = text.trim().replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const kind = isIP(bare);
  if (kind === 4) return V4_MAPPED | v4ToBigint(bare);
  if (kind === 6) return v6ToBigint(bare.toLowerCase());
  return undefined;
}

/** A canonical text for an address (IPv4 dotted when mapped), so that one client has one key. */
export function canonicalIp(text: string): string {
  const value = parseIp(text);
  if (value === undefined) return text;
  if (value >> 32n === 0xffffn) return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
  const groups: string[] = [];
  for (let shift = 112n; shift >= 0n; shift -= 16n) groups.push(((value >> shift) & 0xffffn).toString(16));
  return groups.join(':');
}

/** A range from `a.b.c.d`, `a.b.c.d/n`, an IPv6 address or `ipv6/n`; undefined when malformed. */
export function parseRange(text: string): IpRange | undefined {
  const [address, prefix, extra] = text.trim().split('/');
  if (extra !== undefined || address === undefined) return undefined;
  const base = parseIp(address);
  if (base === undefined) return undefined;
  const v4 = isIP(address.trim()) === 4;
  const max = v4 ? 32 : 128;
  if (prefix !== undefined && !/^\d{1,3}$/.test(prefix)) return undefined;
  const length = prefix === undefined ? max : Number(prefix);
  if (length > max) return undefined;
  const bits = v4 ? length + 96 : length;
  return { base: maskOf(base, bits), bits, text: text.trim() };
}

function maskOf(value: bigint, bits: number): bigint {
  if (bits === 0) return 0n;
  const mask = ((1n << BigInt(bits)) - 1n) << BigInt(128 - bits);
  return value & mask;
}

export function inRanges(address: string, ranges: readonly IpRange[]): boolean {
  if (ranges.length === 0) return false;
  const value = parseIp(address);
  if (value === undefined) return false;
  return ranges.some((range) => maskOf(value, range.bits) === range.base);
}

/**
 * The client's address: the peer's, unless the peer is a trusted proxy; then X-Forwarded-For is
 * read from the right (each proxy appends the address it got the request from), skipping trusted
 * proxies, and the first address not trusted is the client. What a client wrote itself stands at
 * the left and is never reached unless every hop after it is trusted.
 */
export function clientAddress(peer: string, forwardedFor: string, trusted: readonly IpRange[]): string {
  const direct = canonicalIp(peer);
  if (forwardedFor === '' || !inRanges(direct, trusted)) return direct;
  const hops = forwardedFor.split(',').map((hop) => hop.trim()).filter((hop) => hop !== '');
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    if (parseIp(hop) === undefined) return direct; // a malformed list: trust none of it
    if (!inRanges(hop, trusted)) return canonicalIp(hop);
  }
  // Every hop is a trusted proxy: the leftmost is as far as anyone can tell.
  return hops.length > 0 ? canonicalIp(hops[0]!) : direct;
}
