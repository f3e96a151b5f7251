/** A presence report: recorded in memory, and a `presence` event to everyone when the user comes online. */
import { apiEmail, type UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import { legacyEntry } from '../queries/presence.js';

/**
 * Zulip sends no presence events in an organization of more than this many users
 * (USER_LIMIT_FOR_SENDING_PRESENCE_UPDATE_EVENTS): each goes to everyone, and people come online
 * at a rate that grows with the organization too, so the work grows with its square. Clients
 * there learn presence from the answers to their own reports.
 */
const MAX_USERS_FOR_PRESENCE_EVENTS = 100;

/** `now` in (fractional) Unix seconds, as Zulip's `server_timestamp`. */
export function reportPresence(services: Services, user: UserRecord, active: boolean, now: number): Promise<void> {
  // A user who turned presence_enabled off is not tracked at all (Zulip's privacy setting).
  if (user.settings.presence_enabled === false) return Promise.resolve();
  return services.write((tx) => {
    const book = services.presence;
    if (!book.report(user.id, active, Math.floor(now), tx)) return;
    const recipients = presenceRecipients(services);
    if (recipients === undefined) return;
    tx.emit({
      type: 'presence',
      user_id: user.id,
      email: apiEmail(user, services.org.host),
      server_timestamp: now,
      presence: { website: { ...legacyEntry(book.get(user.id)!, user), pushable: false } },
    }, recipients);
  });
}

/** Everyone who hears that a user came online, or undefined beyond Zulip's limit (found without walking the whole organization). */
function presenceRecipients(services: Services): number[] | undefined {
  const recipients: number[] = [];
  let active = 0;
  for (const u of services.org.users.all()) {
    if (!u.isActive) continue;
    if (++active > MAX_USERS_FOR_PRESENCE_EVENTS) return undefined;
    if (!u.isBot) recipients.push(u.id);
  }
  return recipients;
}
