/**
 * Reads that help a client with messages it holds: previewing a message's HTML
 * (POST /messages/render) and checking which messages a narrow matches (GET /messages/matches_narrow).
 */
import type { UserRecord } from '../domain/users.js';
import type { MessageRecord } from '../domain/messages.js';
import type { Services } from '../services.js';
import { MessageQuery } from './message-query.js';
import { messageFlags } from './message-state.js';
import { narrowTerms } from './narrow-terms.js';
import { searchHighlights } from './search-walk.js';

/** The HTML `content` would be sent as by `user` (nothing is stored). */
export function renderPreview(services: Services, user: UserRecord, content: string): string {
  return services.render(content, user).html;
}

/**
 * For each of `ids` that the user received (Zulip reads only the user's own message rows here,
 * not public history) and that matches the narrow: its search fields, by id, with the searched
 * words highlighted when the narrow searches.
 */
export function matchesNarrow(services: Services, user: UserRecord, ids: readonly number[], narrow: unknown): Record<string, { match_content: string; match_subject: string }> {
  const terms = narrowTerms(services, user, narrow);
  const query = new MessageQuery(services, user, terms);
  const matched: MessageRecord[] = [];
  for (const id of new Set(ids)) {
    const record = services.messages.get(id);
    if (!record || messageFlags(services, user.id, record) === undefined || !query.candidate(id)) continue;
    matched.push(record);
  }
  const highlights = searchHighlights(services, query.search, matched.map((record) => ({ html: record.renderedContent, topic: record.topic ?? '' })));
  return Object.fromEntries(matched.map((record, i) => [String(record.id), highlights[i]!]));
}
