/**
 * Full-text search as text rules: how a `search` operand becomes a query for the index (SQLite
 * FTS5 syntax), how message text is prepared for it, and how the index's match markers become
 * Zulip's `<span class="highlight">` in message HTML. Pure: the index and the stemmer are in store/.
 *
 * Semantics (Zulip's, plus what Zulip lacks): the words are ANDed; stop words are ignored; a
 * quoted phrase matches as a phrase; a word matches any word that starts with it or with its
 * English stem (`deploy` finds `deployment`, `deployments` finds `deploying`); accents fold (the
 * index's tokenizer removes diacritics); text written without spaces (Chinese, Japanese) is split
 * into one token per character, so any part of it is found as a phrase of characters.
 */

/** English stop words that a search ignores (those of Zulip's search configuration that matter here). */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'but', 'by', 'for', 'if', 'in', 'into', 'is', 'it', 'no', 'not', 'of', 'on',
  'or', 'such', 'that', 'the', 'their', 'then', 'there', 'these', 'they', 'this', 'to', 'was', 'will', 'with',
]);

/** Scripts written without spaces between words: each character is a token of its own. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30FC]/u;
const UNSPACED_PAIR = /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30FC])(?=[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30FC])/gu;
/**
 * INVISIBLE SEPARATOR: a format character, so the tokenizer splits there, and one that never
 * needs to be shown. Inserted between unspaced characters before indexing, and removed after.
 */
export const TOKEN_BREAK = '\u2063';

/** Message text (or a topic) as the index reads it: unspaced scripts split into characters. */
export function prepareText(text: string): string {
  return UNSPACED.test(text) ? text.replace(UNSPACED_PAIR, `$1${TOKEN_BREAK}`) : text;
}

/** A `search` operand, parsed: the words (each matched as a prefix or by stem) and the phrases. */
export interface SearchText {
  /** Lowercased words of spaced scripts, stop words removed. */
  words: string[];
  /** Phrases: quoted text, and each run of unspaced characters; each a list of tokens. */
  phrases: string[][];
}

const WORD_SPLIT = /[^\p{L}\p{N}\p{M}]+/u;
const RUNS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30FC]+|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30FC]+/gu;

/** Splits a run of text into tokens as the index does (unspaced characters one by one). */
function tokens(text: string): string[] {
  return prepareText(text.toLowerCase()).split(new RegExp(`${WORD_SPLIT.source}|${TOKEN_BREAK}`, 'u')).filter(Boolean);
}

export function parseSearchText(operands: readonly string[]): SearchText {
  const words: string[] = [];
  const phrases: string[][] = [];
  for (const operand of operands) {
    const rest = operand.replace(/"([^"]*)"/g, (_, phrase: string) => {
      const parts = tokens(phrase);
      if (parts.length) phrases.push(parts);
      return ' ';
    });
    for (const word of rest.toLowerCase().split(WORD_SPLIT)) {
      if (!word || STOP_WORDS.has(word)) continue;
      // A run mixing scripts (`東京tower`): the spaced part is a word, the unspaced part a phrase of characters.
      for (const run of word.match(RUNS) ?? []) {
        if (UNSPACED.test(run)) phrases.push(Array.from(run));
        else if (!STOP_WORDS.has(run)) words.push(run);
      }
    }
  }
  return { words, phrases };
}

/** True when the operand has nothing to search for (only stop words or punctuation). */
export const isEmptySearch = (search: SearchText) => search.words.length === 0 && search.phrases.length === 0;

const quote = (token: string) => `"${token.replace(/"/g, '""')}"`;

/**
 * Turns a prefix into the index terms that start with it: the terms (exact), or undefined when
 * there are too many to list (the prefix is then searched as a prefix, which reads every posting
 * of every such term). Without it, prefixes are always searched as prefixes.
 */
export type PrefixExpander = (prefix: string) => readonly string[] | undefined;

/**
 * The FTS5 query for a parsed search: every word and phrase ANDed. A word matches tokens that
 * start with it or with its stem (`stem` gives the English stem, e.g. from SQLite's porter
 * tokenizer); `scopes` restrict to messages with any of these scope tokens (a channel's, a row holder's).
 */
export function ftsQuery(search: SearchText, stem: (word: string) => string, scopes?: readonly string[], expand?: PrefixExpander): string {
  // Words are matched in the text columns only, never in the scope column.
  const text = `{content topic} : (${textTerms(search, stem, expand).join(' AND ')})`;
  if (scopes === undefined || scopes.length === 0) return text;
  return `scope : ${alternatives(scopes.map(quote))} AND ${text}`;
}

/** The query that marks every word a search matches, wherever it stands (each term alone). */
export function highlightQuery(search: SearchText, stem: (word: string) => string): string {
  return `{content topic} : (${textTerms(search, stem).join(' OR ')})`;
}

function textTerms(search: SearchText, stem: (word: string) => string, expand?: PrefixExpander): string[] {
  const terms: string[] = [];
  for (const word of search.words) {
    const stemmed = stem(word) || word;
    // A stem that is a prefix of the word already matches everything the word would.
    const prefixes = word.startsWith(stemmed) ? [stemmed] : [word, stemmed];
    terms.push(alternatives(prefixes.flatMap((prefix) => prefixTerms(prefix, expand))));
  }
  for (const phrase of search.phrases) terms.push(quote(phrase.join(' ')));
  return terms;
}

function prefixTerms(prefix: string, expand: PrefixExpander | undefined): string[] {
  const listed = expand?.(prefix);
  if (listed === undefined) return [`${quote(prefix)} *`];
  // No index term starts with it: nothing in the index matches (the exact word stands for "none").
  return listed.length ? listed.map(quote) : [quote(prefix)];
}

const alternatives = (terms: readonly string[]) => (terms.length === 1 ? terms[0]! : `(${[...new Set(terms)].join(' OR ')})`);

/** The index's token for a channel (the `scope` column), so a search can stay inside one. */
export const channelScope = (channelId: number) => `c${channelId}`;
/** The index's token for a user holding a row of a message (the `scope` column). */
export const userScope = (userId: number) => `u${userId}`;

export const MARK_OPEN = '\u0001';
export const MARK_CLOSE = '\u0002';
const HIGHLIGHT_OPEN = '<span class="highlight">';
const HIGHLIGHT_CLOSE = '</span>';

/**
 * Turns HTML marked by the index's highlighter (MARK_OPEN … MARK_CLOSE around matched tokens,
 * TOKEN_BREAKs between unspaced characters) into Zulip's highlighted HTML: marks inside tags
 * and character references are dropped, and a highlight is closed before a tag and reopened
 * after it, so that the spans always nest properly.
 */
export function renderHighlights(marked: string): string {
  let out = '';
  let open = false;
  let inTag = false;
  let inReference = false;
  for (const char of marked) {
    if (char === TOKEN_BREAK) continue;
    if (char === MARK_OPEN || char === MARK_CLOSE) {
      if (inTag || inReference) continue;
      if (char === MARK_OPEN && !open) {
        out += HIGHLIGHT_OPEN;
        open = true;
      } else if (char === MARK_CLOSE && open) {
        out += HIGHLIGHT_CLOSE;
        open = false;
      }
      continue;
    }
    if (!inTag && char === '<') {
      if (open) out += HIGHLIGHT_CLOSE;
      inTag = true;
    } else if (inTag && char === '>') {
      out += char;
      inTag = false;
      if (open) out += HIGHLIGHT_OPEN;
      continue;
    } else if (!inTag && char === '&') inReference = true;
    else if (inReference && char === ';') inReference = false;
    out += char;
  }
  if (open) out += HIGHLIGHT_CLOSE;
  // A highlight reopened after a tag and closed before the next one is empty.
  return out.split(`${HIGHLIGHT_OPEN}${HIGHLIGHT_CLOSE}`).join('');
}
