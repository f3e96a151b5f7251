/** Names of people and channels as messages carry them: what the page shows until the registration brings the real lists. */
import type { FetchedPage } from './messages.js';

/** Channel and people names as the messages carry them (display_recipient, senders). */
export interface SeenNames {
  users: Map<number, string>;
  channels: Map<number, string>;
}

/** The names a page's messages carry, added to those already seen. */
export function namesIn(page: FetchedPage, seen: SeenNames): SeenNames {
  const users = new Map(seen.users);
  const channels = new Map(seen.channels);
  for (const m of page.messages) {
    users.set(m.sender_id, m.sender_full_name);
    if (typeof m.display_recipient === 'string') {
      if (m.stream_id !== undefined) channels.set(m.stream_id, m.display_recipient);
    } else for (const r of m.display_recipient) users.set(r.id, r.full_name);
  }
  return { users, channels };
}
