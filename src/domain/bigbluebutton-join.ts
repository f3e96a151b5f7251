/**
 * The BigBlueButton join link's rules (Zulip's `join_bigbluebutton`): the signed meeting is
 * checked, and the server's `create` and `join` calls are written with BigBlueButton's checksum
 * (sha256 of the call's name, its query string and the shared secret), their parameters encoded
 * as Python's `urlencode(..., quote_via=quote)` does, so that the URLs are Zulip's to the byte.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { BigBlueButtonMeeting } from './video-calls.js';

/** The meeting a join link carries, or null when its signature is not this server's (Zulip: "Invalid signature."). */
export function verifyMeeting(signed: string, secret: string): BigBlueButtonMeeting | null {
  const dot = signed.lastIndexOf('.');
  if (dot < 0) return null;
  const payload = signed.slice(0, dot);
  const expected = createHmac('sha256', `bigbluebutton join:${secret}`).update(payload).digest();
  const given = Buffer.from(signed.slice(dot + 1), 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const meeting = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<BigBlueButtonMeeting>;
    const valid = typeof meeting.meeting_id === 'string' && typeof meeting.name === 'string' && typeof meeting.lock_settings_disable_cam === 'boolean' && typeof meeting.moderator === 'number';
    return valid ? (meeting as BigBlueButtonMeeting) : null;
  } catch {
    return null;
  }
}

/** Python's `urllib.parse.quote` (safe "/"): what `encodeURIComponent` leaves, less `!'()*`, plus "/". */
function quote(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%2F/g, '/');
}

/** `urlencode(pairs, quote_via=quote)`; booleans as Python prints them. */
function urlencode(pairs: [string, string | number | boolean][]): string {
  const text = (v: string | number | boolean) => (typeof v === 'boolean' ? (v ? 'True' : 'False') : String(v));
  return pairs.map(([key, value]) => `${quote(key)}=${quote(text(value))}`).join('&');
}

const checksum = (call: string, query: string, secret: string) => createHash('sha256').update(call + query + secret).digest('hex');

/** The API base, ending in "/" as Zulip's BIG_BLUE_BUTTON_URL does. */
const base = (url: string) => (url.endsWith('/') ? url : `${url}/`);

export function createUrl(serverUrl: string, secret: string, meeting: BigBlueButtonMeeting): string {
  const query = urlencode([['meetingID', meeting.meeting_id], ['name', meeting.name], ['lockSettingsDisableCam', meeting.lock_settings_disable_cam]]);
  return `${base(serverUrl)}api/create?${query}&checksum=${checksum('create', query, secret)}`;
}

/** The moderator role only for whoever created the meeting, so only they can turn a voice call into a video call. */
export function joinUrl(serverUrl: string, secret: string, meeting: BigBlueButtonMeeting, user: { id: number; fullName: string }, createTime: string): string {
  const role = meeting.moderator === user.id ? 'MODERATOR' : 'VIEWER';
  const query = urlencode([['meetingID', meeting.meeting_id], ['role', role], ['fullName', user.fullName], ['createTime', createTime]]);
  return `${base(serverUrl)}api/join?${query}&checksum=${checksum('join', query, secret)}`;
}

export type CreateAnswer = { createTime: string } | { error: string };

/** Reads the `create` call's XML answer (a flat `<response>`), with Zulip's refusals. */
export function readCreateAnswer(xml: string): CreateAnswer {
  const field = (name: string) => new RegExp(`<${name}>\\s*([^<]*?)\\s*</${name}>`).exec(xml)?.[1];
  if (field('messageKey') === 'checksumError') return { error: 'Error authenticating to the BigBlueButton server.' };
  const createTime = field('createTime');
  if (field('returncode') !== 'SUCCESS' || createTime === undefined) return { error: 'BigBlueButton server returned an unexpected error.' };
  return { createTime };
}
