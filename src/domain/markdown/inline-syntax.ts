/** Zulip's departures from CommonMark inline syntax: no `_` emphasis, one-line verbatim code spans, `~~del~~`. */
import type { StateInline } from 'markdown-it';

const UNDERSCORE = 0x5f;
const BACKTICK = 0x60;
const NEWLINE = 0x0a;
const TILDE = 0x7e;

/** Runs before `emphasis`: `_foo_` and `__foo__` stay text in Zulip. */
export function literalUnderscoresRule(state: StateInline, silent: boolean): boolean {
  const { src, posMax } = state;
  if (src.charCodeAt(state.pos) !== UNDERSCORE) return false;
  let end = state.pos;
  while (end < posMax && src.charCodeAt(end) === UNDERSCORE) end++;
  if (!silent) state.pending += src.slice(state.pos, end);
  state.pos = end;
  return true;
}

/**
 * Replaces `backticks`: a code span closes on a run of exactly as many backticks on the same
 * line, and keeps its content as typed (CommonMark strips one space at each end; Zulip does not).
 */
export function codeSpanRule(state: StateInline, silent: boolean): boolean {
  const { src, posMax } = state;
  const start = state.pos;
  if (src.charCodeAt(start) !== BACKTICK) return false;
  let contentStart = start;
  while (contentStart < posMax && src.charCodeAt(contentStart) === BACKTICK) contentStart++;
  const run = contentStart - start;

  // state.backticks[run]: a position before which no closing run of this length exists on the line.
  const knownMiss = state.backticks[run];
  const contentPossible = contentStart < posMax && src.charCodeAt(contentStart) !== NEWLINE;
  if (contentPossible && (knownMiss === undefined || start >= knownMiss)) {
    let search = contentStart + 1; // the content is never empty
    while (search < posMax) {
      const code = src.charCodeAt(search);
      if (code === NEWLINE) {
        state.backticks[run] = search;
        break;
      }
      if (code !== BACKTICK) {
        search++;
        continue;
      }
      let closeEnd = search;
      while (closeEnd < posMax && src.charCodeAt(closeEnd) === BACKTICK) closeEnd++;
      if (closeEnd - search === run) {
        if (!silent) {
          const token = state.push('code_inline', 'code', 0);
          token.markup = src.slice(start, contentStart);
          token.content = src.slice(contentStart, search);
        }
        state.pos = closeEnd;
        return true;
      }
      search = closeEnd;
    }
    if (search >= src.length) state.backticks[run] = src.length;
  }
  if (!silent) state.pending += src.slice(start, contentStart);
  state.pos = contentStart;
  return true;
}

/**
 * Replaces `strikethrough`: exactly two tildes on each side (no third one next to them) around
 * text without tildes or newlines, rendered `<del>` as Zulip does.
 */
export function strikethroughRule(state: StateInline, silent: boolean): boolean {
  const { src, posMax } = state;
  const start = state.pos;
  if (src.charCodeAt(start) !== TILDE || src.charCodeAt(start + 1) !== TILDE) return false;
  if (src.charCodeAt(start - 1) === TILDE || src.charCodeAt(start + 2) === TILDE) return false;
  let end = start + 2;
  while (end < posMax && src.charCodeAt(end) !== TILDE && src.charCodeAt(end) !== NEWLINE) end++;
  if (end === start + 2 || end + 2 > posMax) return false;
  if (src.charCodeAt(end) !== TILDE || src.charCodeAt(end + 1) !== TILDE || src.charCodeAt(end + 2) === TILDE) return false;
  if (!silent) {
    state.push('del_open', 'del', 1);
    const oldMax = state.posMax;
    state.pos = start + 2;
    state.posMax = end;
    state.md.inline.tokenize(state);
    state.posMax = oldMax;
    state.push('del_close', 'del', -1);
  }
  state.pos = end + 2;
  return true;
}
