/** Narrows (Zulip's search terms): the client's addresses for them, the search box's parser, and local matching. */
import { dmKey, dmUserIds, type Message } from './types.js';

export interface Term {
  operator: string;
  operand: string | number | number[];
  negated?: boolean;
}

export type Narrow = Term[];

/**
 * The combined feed: every message outside muted topics and channels (Zulip's `in:home`). The
 * narrow `[]` (every message, muted ones included) is what Recent conversations reads.
 */
export const HOME: Narrow = [{ operator: 'in', operand: 'home' }];

/** Whether a message is in a topic muted for the reader (only the client's mute state knows). */
export type MutedTest = (message: Message) => boolean;

/** A stable key per narrow: message lists are cached under it. */
export function narrowKey(narrow: Narrow): string {
  return JSON.stringify(narrow.map((t) => [t.negated ? '-' + t.operator : t.operator, t.operand]));
}

export function channelNarrow(streamId: number, topic?: string): Narrow {
  const terms: Narrow = [{ operator: 'channel', operand: streamId }];
  if (topic !== undefined) terms.push({ operator: 'topic', operand: topic });
  return terms;
}

export function dmNarrow(userIds: readonly number[]): Narrow {
  return [{ operator: 'dm', operand: [...userIds].sort((a, b) => a - b) }];
}

export function term(narrow: Narrow, operator: string): Term | undefined {
  return narrow.find((t) => t.operator === operator && !t.negated);
}

/**
 * Whether a message belongs in a narrow, decided here, or undefined when only the server can say
 * (full-text search, `has:`, names not yet resolved): such lists are not updated live.
 */
export function matches(narrow: Narrow, message: Message, selfId: number, muted?: MutedTest): boolean | undefined {
  for (const t of narrow) {
    const answer = t.operator === 'in' ? matchIn(t, message, muted) : matchTerm(t, message, selfId);
    if (answer === undefined) return undefined;
    if (answer === Boolean(t.negated)) return false;
  }
  return true;
}

function matchIn(t: Term, m: Message, muted: MutedTest | undefined): boolean | undefined {
  if (t.operand === 'all') return true;
  if (t.operand !== 'home' || !muted) return undefined;
  return m.type === 'private' || !muted(m);
}

function matchTerm(t: Term, m: Message, selfId: number): boolean | undefined {
  switch (t.operator) {
    case 'channel':
    case 'stream':
      return typeof t.operand === 'number' ? m.type === 'stream' && m.stream_id === t.operand : undefined;
    case 'topic':
      return m.type === 'stream' && m.subject.toLowerCase() === String(t.operand).toLowerCase();
    case 'dm':
      return Array.isArray(t.operand) ? m.type === 'private' && dmKey(dmUserIds(m, selfId)) === dmKey(t.operand) : undefined;
    case 'is':
      switch (t.operand) {
        case 'dm':
          return m.type === 'private';
        case 'starred':
          return m.flags.includes('starred');
        case 'mentioned':
          return m.flags.some((f) => f === 'mentioned' || f === 'wildcard_mentioned' || f === 'stream_wildcard_mentioned' || f === 'topic_wildcard_mentioned');
        case 'unread':
          return !m.flags.includes('read');
        default:
          return undefined;
      }
    case 'sender':
      return typeof t.operand === 'number' ? m.sender_id === t.operand : undefined;
    default:
      return undefined;
  }
}

/** The client's address of a narrow (history API paths; the server answers them with the client's page). */
export function narrowPath(narrow: Narrow): string {
  const channel = term(narrow, 'channel');
  const topic = term(narrow, 'topic');
  const dm = term(narrow, 'dm');
  const is = term(narrow, 'is');
  const plain = narrow.length === 1 || (narrow.length === 2 && channel && topic);
  if (narrow.length === 0 || narrowKey(narrow) === narrowKey(HOME)) return '/';
  if (plain && channel && typeof channel.operand === 'number') {
    return `/channel/${channel.operand}` + (topic ? `/topic/${encodeURIComponent(String(topic.operand))}` : '');
  }
  if (plain && dm && Array.isArray(dm.operand)) return `/dm/${dm.operand.join(',')}`;
  if (plain && is?.operand === 'starred') return '/starred';
  if (plain && is?.operand === 'mentioned') return '/mentions';
  return `/search/${encodeURIComponent(searchText(narrow))}`;
}

/** The narrow at a client address (undefined for addresses that are not narrows: settings, admin). */
export function narrowFromPath(path: string): Narrow | undefined {
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0) return HOME;
  const [head, a, b, c] = parts;
  if (head === 'channel' && a && /^\d+$/.test(a)) return channelNarrow(Number(a), b === 'topic' && c !== undefined ? c : undefined);
  if (head === 'dm' && a) return dmNarrow(a.split(',').map(Number));
  if (head === 'starred') return [{ operator: 'is', operand: 'starred' }];
  if (head === 'mentions') return [{ operator: 'is', operand: 'mentioned' }];
  if (head === 'search' && a !== undefined) return parseSearch(a);
  return undefined;
}

const OPERATORS = new Set(['channel', 'stream', 'topic', 'sender', 'is', 'has', 'dm', 'near', 'id', 'search', 'dm-including', 'channels', 'in']);

/** Zulip's search box: `channel:x topic:"a b" sender:e -is:read has:image words` → terms (words become one `search`). */
export function parseSearch(text: string): Narrow {
  const terms: Narrow = [];
  const words: string[] = [];
  for (const token of text.match(/-?[a-z-]+:("[^"]*"|\S*)|"[^"]*"|\S+/gi) ?? []) {
    const colon = token.indexOf(':');
    const negated = token.startsWith('-');
    const operator = colon > 0 ? token.slice(negated ? 1 : 0, colon).toLowerCase() : '';
    if (!OPERATORS.has(operator)) {
      words.push(unquote(token));
      continue;
    }
    const operand = unquote(token.slice(colon + 1));
    terms.push({ operator: operator === 'stream' ? 'channel' : operator, operand, ...(negated ? { negated } : {}) });
  }
  if (words.length) terms.push({ operator: 'search', operand: words.join(' ') });
  return terms;
}

/** The search box's text for a narrow (inverse of parseSearch, names where the caller resolved them). */
export function searchText(narrow: Narrow, name?: (t: Term) => string | undefined): string {
  return narrow
    .map((t) => {
      if (t.operator === 'search') return String(t.operand);
      const shown = name?.(t) ?? (Array.isArray(t.operand) ? t.operand.join(',') : String(t.operand));
      return `${t.negated ? '-' : ''}${t.operator}:${/\s/.test(shown) ? `"${shown}"` : shown}`;
    })
    .join(' ');
}

function unquote(s: string): string {
  return s.length >= 2 && s.startsWith('"') && s.endsWith('"') ? s.slice(1, -1) : s;
}

/** The narrow as GET /messages takes it (JSON-encoded list of {operator, operand, negated}). */
export function apiNarrow(narrow: Narrow): string {
  return JSON.stringify(narrow.map((t) => ({ operator: t.operator, operand: t.operand, ...(t.negated ? { negated: true } : {}) })));
}
