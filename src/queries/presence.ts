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

/** The `presences` object, keyed by email (legacy) or by user id (slim). */
export function presences(services: Services, slim: boolean, now: number, sinceUpdateId = -1): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  // With `last_update_id`, only the changes since (the log's tail), not every user's presence.
  const candidates = sinceUpdateId >= 0 ? services.presence.changedSince(sinceUpdateId) : services.presence.entries();
  for (const [userId, presence] of candidates) {
    const user = services.org.users.get(userId);
    // Those who turned presence_enabled off are shown to nobody, whatever was recorded before.
    if (!user || !user.isActive || user.isBot || user.settings.presence_enabled === false) continue;
    if (now - presence.lastConnected > HISTORY_DAYS * 86400 || presence.updateId <= sinceUpdateId) continue;
    if (slim) {
      result[userId] = { active_timestamp: presence.lastActive ?? Math.floor(user.dateJoined / 1000), idle_timestamp: presence.lastConnected };
    } else {
      const entry = legacyEntry(presence, user);
      result[apiEmail(user, services.org.host)] = { aggregated: entry, website: withFields(entry, { pushable: false }) };
    }
  }
  return result;
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
