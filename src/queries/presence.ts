/** Presence as the API shows it: Zulip's legacy per-client dict and the slim form, keyed by email or id. */
import { apiEmail, type UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import { ONLINE_AGAIN_SECONDS, type Presence } from '../store/presence-book.js';
import { withFields } from '../shared/with-fields.js';

const HISTORY_DAYS = 14;

/** Zulip's legacy presence dict: active if the last activity is recent enough, else idle since the last connection. */
export function legacyEntry(presence: Presence, user: UserRecord) {
  const lastActive = presence.lastActive ?? Math.floor(user.dateJoined / 1000);
  const active = lastActive + ONLINE_AGAIN_SECONDS >= presence.lastConnected;
  return { client: 'website', status: active ? 'active' : 'idle', timestamp: active ? lastActive : presence.lastConnected };
}

/**
 * The presences to show: with `last_update_id`, only the changes since (the log's tail), not
 * every user's presence; never those who turned presence_enabled off (shown to nobody, whatever
 * was recorded before), nor entries older than Zulip's two weeks.
 */
function forEachShown(services: Services, now: number, sinceUpdateId: number, visit: (user: UserRecord, presence: Presence) => void): void {
  services.presence.forEachSince(sinceUpdateId, (userId, presence) => {
    const user = services.org.users.get(userId);
    if (!user || !user.isActive || user.isBot || user.settings.presence_enabled === false) return;
    if (now - presence.lastConnected > HISTORY_DAYS * 86400) return;
    visit(user, presence);
  });
}

const slimEntry = (presence: Presence, user: UserRecord) => ({ active_timestamp: presence.lastActive ?? Math.floor(user.dateJoined / 1000), idle_timestamp: presence.lastConnected });

/** The `presences` object, keyed by email (legacy) or by user id (slim). */
export function presences(services: Services, slim: boolean, now: number, sinceUpdateId = -1): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  forEachShown(services, now, sinceUpdateId, (user, presence) => {
    if (slim) {
      result[user.id] = slimEntry(presence, user);
    } else {
      const entry = legacyEntry(presence, user);
      result[apiEmail(user, services.org.host)] = { aggregated: entry, website: withFields(entry, { pushable: false }) };
    }
  });
  return result;
}

/**
 * A user's slim entry as UTF-8 JSON (`,"id":{…}`, after a comma), by the presence it shows. A
 * presence is replaced at each report, so its entry is encoded once and then copied into every
 * answer that shows it: with `last_update_id` each report (every 60 s) reads everyone who reported
 * since, so in the mixed bench at 2,500 people each answer carried ~2,500 entries, and building
 * them as objects to stringify and encode was the largest allocation of the busy server (about
 * 40% of its bytes allocated).
 */
const slimBytes = new WeakMap<Presence, Buffer>();

function slimEntryBytes(presence: Presence, user: UserRecord): Buffer {
  let bytes = slimBytes.get(presence);
  if (bytes === undefined) {
    bytes = Buffer.from(`,"${user.id}":${JSON.stringify(slimEntry(presence, user))}`);
    slimBytes.set(presence, bytes);
  }
  return bytes;
}

const PRESENCES_OPEN = Buffer.from('"presences":{');
const CLOSE = Buffer.from('}');

/** `"presences":{…}` as the pieces of an answer (RawJson.encodedFields), the slim entries copied from their cache. */
export function presencesField(services: Services, slim: boolean, now: number, sinceUpdateId = -1): Buffer[] {
  if (!slim) return [Buffer.from(`"presences":${JSON.stringify(presences(services, false, now, sinceUpdateId))}`)];
  const pieces: Buffer[] = [PRESENCES_OPEN];
  forEachShown(services, now, sinceUpdateId, (user, presence) => {
    const entry = slimEntryBytes(presence, user);
    // The first entry goes without its comma.
    pieces.push(pieces.length === 1 ? entry.subarray(1) : entry);
  });
  pieces.push(CLOSE);
  return pieces;
}

/** Zulip's OFFLINE_THRESHOLD_SECS: an aggregated status older than this reads `offline`. */
const OFFLINE_THRESHOLD_SECONDS = 140;

/**
 * One user's presence (`GET /users/{user_id_or_email}/presence`): the legacy dict without
 * `client` or `pushable`, `offline` once the aggregated status is stale; undefined when nothing
 * is recorded (or the user hides it).
 */
export function userPresence(services: Services, user: UserRecord, now: number): Record<string, { status: string; timestamp: number }> | undefined {
  const presence = services.presence.get(user.id);
  if (!presence || user.settings.presence_enabled === false) return undefined;
  const entry = legacyEntry(presence, user);
  const status = now - entry.timestamp > OFFLINE_THRESHOLD_SECONDS ? 'offline' : entry.status;
  return { aggregated: { status, timestamp: entry.timestamp }, website: { status: entry.status, timestamp: entry.timestamp } };
}
