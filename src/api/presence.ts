/**
 * Presence: `POST /users/me/presence` and the `presences` state. Presence is ephemeral, so it
 * is kept in memory only; a `presence` event goes out when someone comes online.
 */
import { badRequest } from '../domain/errors.js';
import { apiEmail, type UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import { Transaction } from '../store/transaction.js';
import { me, type ApiRoute } from './route.js';

/** Zulip counts someone as newly online after this long without an active report. */
const ONLINE_AGAIN_SECONDS = 70;
const HISTORY_DAYS = 14;

interface Presence {
  /** Null until the first active report (Zulip counts from the date joined then). */
  lastActive: number | null;
  lastConnected: number;
  updateId: number;
}

export class PresenceBook {
  private readonly byUser = new Map<number, Presence>();
  private lastUpdateId = 0;

  get(userId: number): Presence | undefined {
    return this.byUser.get(userId);
  }

  /** Records a report; true when it deserves an event: the user's first report ever, or coming online. */
  report(userId: number, active: boolean, now: number): boolean {
    const previous = this.byUser.get(userId);
    const next: Presence = {
      lastActive: active ? now : (previous?.lastActive ?? null),
      lastConnected: now,
      updateId: ++this.lastUpdateId,
    };
    this.byUser.set(userId, next);
    const lastActive = previous?.lastActive ?? null;
    return !previous || (active && (lastActive === null || now - lastActive > ONLINE_AGAIN_SECONDS));
  }

  get newestUpdateId(): number {
    return this.byUser.size ? this.lastUpdateId : -1;
  }

  entries(): IterableIterator<[number, Presence]> {
    return this.byUser.entries();
  }
}

/** Zulip's legacy presence dict: active if the last activity is recent enough, else idle since the last connection. */
function legacyEntry(presence: Presence, user: UserRecord) {
  const lastActive = presence.lastActive ?? Math.floor(user.dateJoined / 1000);
  const active = lastActive + ONLINE_AGAIN_SECONDS >= presence.lastConnected;
  return { client: 'website', status: active ? 'active' : 'idle', timestamp: active ? lastActive : presence.lastConnected };
}

/** The `presences` object, keyed by email (legacy) or by user id (slim). */
export function presences(services: Services, book: PresenceBook, slim: boolean, now: number, sinceUpdateId = -1): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [userId, presence] of book.entries()) {
    const user = services.org.users.get(userId);
    if (!user || !user.isActive || user.isBot) continue;
    if (now - presence.lastConnected > HISTORY_DAYS * 86400 || presence.updateId <= sinceUpdateId) continue;
    if (slim) {
      result[userId] = { active_timestamp: presence.lastActive ?? Math.floor(user.dateJoined / 1000), idle_timestamp: presence.lastConnected };
    } else {
      const entry = legacyEntry(presence, user);
      result[apiEmail(user, services.org.host)] = { aggregated: entry, website: { ...entry, pushable: false } };
    }
  }
  return result;
}

export function presenceRoutes(services: Services, book: PresenceBook): ApiRoute[] {
  return [
    {
      method: 'POST',
      path: '/users/me/presence',
      schema: 'update-presence',
      auth: 'user',
      handler: async (request) => {
        const user = me(request);
        const p = request.params;
        if (user.isBot) throw badRequest('This endpoint does not accept bot requests.');
        if (p.status !== 'active' && p.status !== 'idle') throw badRequest(`Invalid status: ${p.status}`);
        const now = services.clock.now() / 1000;
        const seconds = Math.floor(now);
        if (book.report(user.id, p.status === 'active', seconds)) {
          await services.write((tx) => {
            const recipients = [...services.org.users.all()].filter((u) => u.isActive && !u.isBot).map((u) => u.id);
            tx.emit({
              type: 'presence',
              user_id: user.id,
              email: apiEmail(user, services.org.host),
              server_timestamp: now,
              presence: { website: { ...legacyEntry(book.get(user.id)!, user), pushable: false } },
            }, recipients);
          });
        }
        if (p.ping_only) return {};
        const slim = p.slim_presence || p.last_update_id !== undefined;
        const since = p.last_update_id !== undefined && p.last_update_id > 0 ? p.last_update_id : -1;
        return {
          presences: presences(services, book, slim, seconds, since),
          server_timestamp: now,
          presence_last_update_id: book.newestUpdateId,
        };
      },
    },
  ];
}
