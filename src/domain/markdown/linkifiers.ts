/**
 * The organization's linkifiers in messages (as Zulip's LinkifierPattern: each, in order, links
 * its matches in text not yet linked, the URL its template's expansion with the pattern's named
 * groups) and in topics (Zulip's `topic_links`: linkifier matches by precedence, then plain URLs,
 * overlaps dropped).
 */
import type { StateCore, Token } from 'markdown-it';
import type { CompiledLinkifier } from '../linkifiers.js';
import { expandTemplate } from '../url-template.js';
import { renderState } from './context.js';
import { normalizeLink, validateLink } from './links.js';

interface Piece {
  text: string;
  href?: string;
}

interface Found {
  index: number;
  text: string;
  url: string;
}

/** Where `linkifier` matches `text`; `atStart`: the text begins a line (Zulip's `^`), not right after other markup. */
function matches(linkifier: CompiledLinkifier, text: string, atStart: boolean): Found[] {
  // A character the "before" group never matches stands for the markup Zulip sees there.
  const subject = atStart ? text : `\u0001${text}`;
  const shift = atStart ? 0 : 1;
  const found: Found[] = [];
  for (const match of subject.matchAll(linkifier.regex)) {
    const values: Record<string, string | undefined> = {};
    for (const name of linkifier.groups) values[name] = match.groups?.[name];
    const url = normalizeLink(expandTemplate(linkifier.urlTemplate, values));
    if (match[2] === '' || !validateLink(url)) continue;
    found.push({ index: match.index + match[1].length - shift, text: match[2], url });
  }
  return found;
}

/** Splits text pieces at the linkifier's matches; linked pieces are left alone (Zulip's AtomicString). */
function applyLinkifier(pieces: Piece[], linkifier: CompiledLinkifier, startsLine: boolean): Piece[] {
  const out: Piece[] = [];
  pieces.forEach((piece, position) => {
    if (piece.href !== undefined || piece.text === '') {
      out.push(piece);
      return;
    }
    let at = 0;
    for (const found of matches(linkifier, piece.text, startsLine && position === 0)) {
      if (found.index > at) out.push({ text: piece.text.slice(at, found.index) });
      out.push({ text: found.text, href: found.url });
      at = found.index + found.text.length;
    }
    if (at < piece.text.length) out.push({ text: piece.text.slice(at) });
  });
  return out;
}

function linkTokens(state: StateCore, pieces: readonly Piece[], level: number): Token[] {
  const tokens: Token[] = [];
  for (const piece of pieces) {
    if (piece.href === undefined) {
      const text = new state.Token('text', '', 0);
      text.content = piece.text;
      text.level = level;
      tokens.push(text);
      continue;
    }
    const open = new state.Token('link_open', 'a', 1);
    open.attrs = [['href', piece.href]];
    open.markup = 'linkifier';
    open.level = level;
    const text = new state.Token('text', '', 0);
    text.content = piece.text;
    text.level = level + 1;
    const close = new state.Token('link_close', 'a', -1);
    close.markup = 'linkifier';
    close.level = level;
    tokens.push(open, text, close);
  }
  return tokens;
}

/** Core rule: links the linkifiers' matches in every text token outside links. */
export function linkifierRule(state: StateCore): void {
  const linkifiers = renderState(state.env).context.linkifiers?.() ?? [];
  if (linkifiers.length === 0) return;
  for (const block of state.tokens) {
    const children = block.type === 'inline' ? block.children : null;
    if (!children) continue;
    let inLink = 0;
    for (let i = 0; i < children.length; i++) {
      const token = children[i];
      if (token.type === 'link_open') inLink++;
      if (token.type === 'link_close') inLink--;
      if (token.type !== 'text' || inLink > 0) continue;
      // Zulip's `^`: the start of a text of its own (a line, or inside markup just opened), not
      // text right after other markup (Zulip sees a placeholder there).
      const previous = children[i - 1];
      const startsLine = !previous || previous.type === 'softbreak' || previous.type === 'hardbreak' || previous.nesting === 1;
      let pieces: Piece[] = [{ text: token.content }];
      for (const linkifier of linkifiers) pieces = applyLinkifier(pieces, linkifier, startsLine);
      if (pieces.length === 1 && pieces[0].href === undefined) continue;
      const replacement = linkTokens(state, pieces, token.level);
      children.splice(i, 1, ...replacement);
      i += replacement.length - 1;
    }
  }
}

/** A topic's links, as Zulip's `topic_links`: `urls` finds the plain URLs in a text. */
export function topicLinks(
  topic: string,
  linkifiers: readonly CompiledLinkifier[],
  urls: (text: string) => { index: number; text: string; url: string }[],
): { text: string; url: string }[] {
  const candidates: (Found & { precedence: number })[] = [];
  linkifiers.forEach((linkifier, precedence) => {
    for (const found of matches(linkifier, topic, true)) candidates.push({ ...found, precedence });
  });
  candidates.sort((a, b) => a.precedence - b.precedence || a.index - b.index);
  for (const found of urls(topic)) candidates.push({ ...found, precedence: linkifiers.length });
  const applied: Found[] = [];
  for (const candidate of candidates) {
    const end = candidate.index + candidate.text.length;
    if (applied.some((a) => candidate.index < a.index + a.text.length && a.index < end)) continue;
    applied.push(candidate);
  }
  return applied.sort((a, b) => a.index - b.index).map(({ text, url }) => ({ text, url }));
}
