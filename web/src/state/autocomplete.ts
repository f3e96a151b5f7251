/** Compose autocompletion: the token being typed (`@name`, `:emoji`, `#channel`), its candidates, and the text after a choice. */

export type TokenKind = 'mention' | 'emoji' | 'channel';

export interface Token {
  kind: TokenKind;
  /** What was typed after the sigil. */
  query: string;
  /** Where the sigil is. */
  start: number;
  end: number;
}

const SIGILS: Record<string, TokenKind> = { '@': 'mention', ':': 'emoji', '#': 'channel' };

/** The token ending at the caret, if the caret is in one (a sigil at a word's start, no space since, except in mentions). */
export function tokenAt(text: string, caret: number): Token | undefined {
  const before = text.slice(0, caret);
  const match = /(^|[\s(])([@:#])(\*\*)?([^\s@:#*]*(?: [^\s@:#*]+)?)$/.exec(before);
  if (!match) return undefined;
  const kind = SIGILS[match[2]!]!;
  const query = match[4]!;
  if (kind === 'emoji' && query.length < 2) return undefined;
  if (kind !== 'mention' && query.includes(' ')) return undefined;
  return { kind, query, start: caret - query.length - 1 - (match[3]?.length ?? 0), end: caret };
}

export interface Candidate {
  /** Shown in the menu. */
  label: string;
  /** Inserted in place of the token. */
  insert: string;
}

/** Candidates whose name starts with the query (or a word of it does), best first, at most `limit`. */
export function rank<T>(items: readonly T[], query: string, name: (item: T) => string, limit = 8): T[] {
  const q = query.toLowerCase();
  const scored: { item: T; score: number }[] = [];
  for (const item of items) {
    const n = name(item).toLowerCase();
    const score = n.startsWith(q) ? 0 : n.split(/[\s_-]+/).some((w) => w.startsWith(q)) ? 1 : n.includes(q) ? 2 : -1;
    if (score >= 0) scored.push({ item, score });
  }
  scored.sort((a, b) => a.score - b.score || name(a.item).localeCompare(name(b.item)));
  return scored.slice(0, limit).map((s) => s.item);
}

/** The text with the token replaced by the chosen candidate (and a space after it), and the caret after that. */
export function applyCandidate(text: string, token: Token, insert: string): { text: string; caret: number } {
  const next = text.slice(0, token.start) + insert + ' ' + text.slice(token.end);
  return { text: next, caret: token.start + insert.length + 1 };
}

export function mentionSyntax(fullName: string, userId: number): string {
  return `@**${fullName}|${userId}**`;
}

export function channelSyntax(name: string): string {
  return `#**${name}**`;
}

/** Quote-and-reply: the message's Markdown quoted, with a link line naming the sender, as Zulip writes it. */
export function quoteReply(senderName: string, senderId: number, markdown: string): string {
  const fence = markdown.includes('```') ? '````' : '```';
  return `@_**${senderName}|${senderId}** said:\n${fence}quote\n${markdown}\n${fence}\n`;
}
