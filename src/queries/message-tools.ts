/**
 * Reads that help a client with messages it holds: previewing a message's HTML
 * (POST /messages/render) and checking which messages a narrow matches (GET /messages/matches_narrow).
 */
import { parseSearch } from '../domain/narrow.js';
import { searchFields } from '../domain/search-highlight.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import { MessageQuery } from './message-query.js';
import { messageFlags } from './message-state.js';
import { narrowTerms } from './narrow-terms.js';

/** The HTML `content` would be sent as by `user` (nothing is stored). */
export function renderPreview(services: Services, user: UserRecord, content: string): string {
  return services.render(content, user).html;
}

/**
 * For each of `ids` that the user received (Zulip reads only the user's own message rows here,
 * not public history) and that matches the narrow: its search fields, by id, with the searched
 * words highlighted when the narrow searches.
 */
export function matchesNarrow(services: Services, user: UserRecord, ids: readonly number[], narrow: unknown): Record<string, ReturnType<typeof searchFields>> {
  const terms = narrowTerms(services, user, narrow);
  const query = new MessageQuery(services, user, terms);
  const searches = terms.filter((t) => t.kind === 'search' && !t.negated) as { query: string }[];
  const words = searches.length ? parseSearch(searches.map((t) => t.query).join(' ')).words : [];
  const found: Record<string, ReturnType<typeof searchFields>> = {};
  for (const id of new Set(ids)) {
    const record = services.messages.get(id);
    if (!record || messageFlags(services, user.id, record) === undefined || !query.candidate(id)) continue;
    found[String(id)] = searchFields(record.renderedContent, record.topic ?? '', words);
  }
  return found;
}
