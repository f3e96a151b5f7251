/**
 * The candidates of a narrow with `search` operands, in id order from an anchor: the full-text
 * index's hits, which match by construction, and the messages the index does not hold yet
 * (written moments ago, or above its indexed id while it catches up at start), which the caller
 * matches from their records. Access and the other operands are checked by the caller.
 */
import { channelScope, ftsQuery, highlightQuery, isEmptySearch, parseSearchText, userScope, type SearchText } from '../domain/search-text.js';
import type { Term } from '../domain/narrow.js';
import type { MessageRange, WalkOptions } from '../store/messages.js';
import { searchDocument } from '../store/search-index.js';
import type { MessageRecord } from '../domain/messages.js';
import type { Services } from '../services.js';
import { escapeHtml } from '../domain/html.js';

export interface SearchCandidate {
  id: number;
  /** From the index: it matches the search. Otherwise the record must be matched. */
  trusted: boolean;
}

/** The positive `search` operands of a narrow, as queries for the index and the matcher. */
export interface SearchPlan {
  text: SearchText;
  /** For the index: the words and phrases, inside the narrow's channel when it names one. */
  indexQuery: string;
  /** For one record: the words and phrases. */
  recordQuery: string;
  /** Marks every matched word. */
  highlightQuery: string;
  /** Only stop words: nothing matches (as Zulip's empty text query). */
  empty: boolean;
}

/**
 * A user's scope is asked of the index only when their channels are few, in number and as a share
 * of the organization's: it saves reading others' hits, but an OR of many channels' postings costs
 * more than it saves (a member of 90 of 100 channels: rare words 4× slower with it).
 */
const MAX_SCOPE_CHANNELS = 64;
const MAX_SCOPE_SHARE = 0.25;

/**
 * The search plan of a narrow. `viewerOnly`: only messages the viewer holds can match (no
 * channel history is shown), so the index is asked only for the viewer's scope.
 */
export function searchPlan(services: Services, terms: readonly Term[], viewerId: number, viewerOnly: boolean): SearchPlan | undefined {
  // Most narrows search nothing: asked without building anything.
  if (!terms.some((t) => t.kind === 'search' && !t.negated)) return undefined;
  const operands = terms.flatMap((t) => (t.kind === 'search' && !t.negated ? [t.query] : []));
  const text = parseSearchText(operands);
  const channel = terms.find((t) => t.kind === 'channel' && !t.negated) as Extract<Term, { kind: 'channel' }> | undefined;
  const scopes = channel ? [channelScope(channel.channelId)] : viewerOnly ? viewerScopes(services, viewerId) : undefined;
  return textPlan(services, text, scopes);
}

/**
 * The index scopes that hold every message a user has: the channels they received messages in
 * (their reception intervals; the caller checks the intervals) and the messages they hold a row
 * of (direct messages, and channel messages received some other way), which carry their token;
 * undefined when the scope would cost more than it saves.
 */
export function viewerScopes(services: Services, userId: number): string[] | undefined {
  const receptions = services.subscriptions.receptionsOf(userId);
  if (receptions.length > MAX_SCOPE_CHANNELS || receptions.length > services.org.channels.size * MAX_SCOPE_SHARE) return undefined;
  return [userScope(userId), ...receptions.map((r) => channelScope(r.channelId))];
}

function textPlan(services: Services, text: SearchText, scopes: readonly string[] | undefined): SearchPlan {
  const stem = (word: string) => services.search.matcher.stem(word);
  const empty = isEmptySearch(text);
  return {
    text,
    indexQuery: empty ? '' : ftsQuery(text, stem, scopes, (prefix) => services.search.expandPrefix(prefix)),
    recordQuery: empty ? '' : ftsQuery(text, stem),
    highlightQuery: empty ? '' : highlightQuery(text, stem),
    empty,
  };
}

/** Zulip's `match_content` and `match_subject` of a page of messages: their HTML and topics with the matched words highlighted. */
export function searchHighlights(services: Services, plan: SearchPlan | undefined, messages: readonly { html: string; topic: string }[]): { match_content: string; match_subject: string }[] {
  const documents = messages.map((m) => ({ html: m.html, topicHtml: escapeHtml(m.topic) }));
  const marked = !plan || plan.empty ? [] : services.search.matcher.highlight(plan.highlightQuery, documents);
  return documents.map((doc, i) => ({ match_content: marked[i]?.content ?? doc.html, match_subject: marked[i]?.topic ?? doc.topicHtml }));
}

/** Whether one record matches a search (a negated operand, or a message the index does not hold). */
export function recordMatches(services: Services, query: string, record: Pick<MessageRecord, 'type' | 'channelId' | 'content' | 'topic'>): boolean {
  return query !== '' && services.search.matcher.matches(query, [searchDocument(record)])[0]!;
}

/** A negated `search` operand's query for one record. */
export function negatedQuery(services: Services, operand: string): string {
  const text = parseSearchText([operand]);
  return textPlan(services, text, undefined).recordQuery;
}

/**
 * Candidates in id order: `tail` is the narrow's own range, walked only above the index's
 * indexed id; pending ids (written, not yet indexed) are merged in.
 */
export async function* searchCandidates(services: Services, plan: SearchPlan, tail: MessageRange | undefined, walk: WalkOptions): AsyncGenerator<SearchCandidate> {
  if (plan.empty) return;
  const index = services.search;
  const limit = index.indexedLimit;
  const pending = pendingInWalk(index.pendingIds(), walk);
  let next = 0;
  let lastYielded: number | undefined;
  const before = (a: number, b: number) => (walk.reverse ? a > b : a < b);
  // Yields the pending ids that come before `id` in the walk's order (all of them when undefined).
  function* pendingBefore(id: number | undefined): Generator<SearchCandidate> {
    while (next < pending.length && (id === undefined || before(pending[next]!, id) || pending[next] === id)) {
      const candidate = pending[next++]!;
      if (candidate !== id && candidate !== lastYielded) yield { id: candidate, trusted: false };
    }
  }
  async function* tailIds(): AsyncGenerator<number> {
    if (!tail || limit === Number.MAX_SAFE_INTEGER) return;
    const from = walk.reverse ? walk.from : Math.max(walk.from ?? 0, limit + 1);
    const inclusive = walk.reverse ? walk.inclusive : walk.from !== undefined && walk.from > limit ? walk.inclusive : true;
    for await (const id of services.messages.ids(tail, { reverse: walk.reverse, from, inclusive, expected: walk.expected })) {
      if (id <= limit) return;
      yield id;
    }
  }
  const sources: (() => AsyncGenerator<SearchCandidate>)[] = [
    async function* () {
      for await (const id of tailIds()) yield { id, trusted: false };
    },
    async function* () {
      for (const id of index.hits(plan.indexQuery, walk)) yield { id, trusted: true };
    },
  ];
  if (!walk.reverse) sources.reverse();
  for (const source of sources) {
    for await (const candidate of source()) {
      yield* pendingBefore(candidate.id);
      if (candidate.id === lastYielded) continue;
      lastYielded = candidate.id;
      yield candidate;
    }
  }
  yield* pendingBefore(undefined);
}

/** Pending ids inside the walk's bounds, in its order. */
function pendingInWalk(ids: number[], walk: WalkOptions): number[] {
  const inside = ids.filter((id) => {
    if (walk.from === undefined) return true;
    if (walk.reverse) return walk.inclusive ? id <= walk.from : id < walk.from;
    return walk.inclusive ? id >= walk.from : id > walk.from;
  });
  return walk.reverse ? inside.reverse() : inside;
}
