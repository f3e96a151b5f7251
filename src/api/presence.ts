/**
 * Presence: `POST /users/me/presence` and the `presences` state. Presence is ephemeral, so it
 * is kept in memory only; a `presence` event goes out when someone comes online.
 */
import { badRequest } from '../domain/errors.js';
import { apiEmail } from '../domain/users.js';
import type { Services } from '../services.js';
import { Transaction } from '../store/transaction.js';
import { me, type ApiRoute } from './route.js';

/** Zulip counts someone as newly online after this long without an active report. */
const ONLINE_AGAIN_SECONDS = 70;
const HISTORY_DAYS = 14;

interface Presence {
  lastActive: number;
  lastConnected: number;
  updateId: number;
}

export class PresenceBook {
  private readonly byUser = new Map<number, Presence>();
  private lastUpdateId = 0;

  get(userId: number): Presence | undefined {
    return this.byUser.get(userId);
  }

  /** Records a report; true when the user just came online. */
  report(userId: number, active: boolean, now: number): boolean {
    const previous = this.byUser.get(userId);
    const next: Presence = {
      lastActive: active ? now : (previous?.lastActive ?? now),
      lastConnected: now,
      updateId: ++this.lastUpdateId,
    };
    this.byUser.set(userId, next);
    return active && (!previous || now - previous.lastActive > ONLINE_AGAIN_SECONDS);
  }

  get newestUpdateId(): number {
    return this.byUser.size ? this.lastUpdateId : -1;
  }

  entries(): IterableIterator<[number, Presence]> {
    return this.byUser.entries();
  }
}

/** The `presences` object, keyed by email (legacy) or by user id (slim). */
export function presences(services: Services, book: PresenceBook, slim: boolean, now: number, sinceUpdateId = -1): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [userId, presence] of book.entries()) {
    const user = services.org.users.get(userId);
    if (!user || !user.isActive || user.isBot) continue;
    if (now - presence.lastConnected > HISTORY_DAYS * 86400 || presence.updateId <= sinceUpdateId) continue;
    if (slim) {
      result[userId] = { active_timestamp: presence.lastActive, idle_timestamp: presence.lastConnected };
    } else {
      const active = presence.lastActive + ONLINE_AGAIN_SECONDS >= presence.lastConnected;
      const entry = { client: 'website', status: active ? 'active' : 'idle', timestamp: active ? presence.lastActive : presence.lastConnected };
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
          const tx = new Transaction();
          const recipients = [...services.org.users.all()].filter((u) => u.isActive && !u.isBot).map((u) => u.id);
          tx.emit({
            type: 'presence',
            user_id: user.id,
            email: apiEmail(user, services.org.host),
            server_timestamp: now,
            presence: { website: { client: 'website', status: p.status, timestamp: seconds, pushable: false } },
          }, recipients);
          await services.commit(tx);
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
