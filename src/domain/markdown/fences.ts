/** Zulip's fenced blocks: code (```` ```lang ````), quotes (```` ```quote ````) and spoilers (```` ```spoiler Header ````). */
import type { RendererRule, StateBlock } from 'markdown-it';
import { codeLanguageName } from './code-languages.js';
import { escapeAttribute, escapeHighlightedCode, escapeText } from './html.js';
import { highlightCode } from './highlight.js';

/** Zulip's fence line: the fence, then an optional language (`.py`, `{js}`) and a header (for spoilers). */
const FENCE = /^(~{3,}|`{3,})[ ]*(?:\{?\.?([a-zA-Z0-9_+\-./#]+)[ ]*([^ ~`][^~`]*)?\}?)?$/;
const BACKTICK = 0x60;
const TILDE = 0x7e;
const NEWLINE = 0x0a;

export const SPOILER_OPEN = 'spoiler_open';
export const SPOILER_CONTENT = 'spoiler_content';
export const SPOILER_CLOSE = 'spoiler_close';

type FenceKind = 'code' | 'quote' | 'spoiler';

function fenceKind(language: string | undefined): FenceKind {
  if (language === 'quote' || language === 'quoted') return 'quote';
  if (language === 'spoiler') return 'spoiler';
  return 'code';
}

function lineText(state: StateBlock, line: number): string {
  return state.src.slice(state.bMarks[line] + state.tShift[line], state.eMarks[line]);
}

interface OpenFence {
  fence: string;
  /** Quotes and spoilers hold markdown, so fences open inside them; code holds only text. */
  nests: boolean;
}

/**
 * Where the block opened at `startLine` ends: Zulip closes a fence only on a line that is exactly
 * the same fence, and inside quotes and spoilers tracks nested fences so an inner ```` ``` ````
 * does not close the outer one. An unclosed fence runs to the end of its container.
 */
function findClose(state: StateBlock, startLine: number, endLine: number, outer: OpenFence): { contentEnd: number; next: number } {
  const open: OpenFence[] = [outer];
  for (let line = startLine + 1; line < endLine; line++) {
    const empty = state.isEmpty(line);
    if (!empty && state.sCount[line] < state.blkIndent) return { contentEnd: line, next: line };
    const text = lineText(state, line).trimEnd();
    const innermost = open[open.length - 1];
    if (text === innermost.fence) {
      open.pop();
      if (open.length === 0) return { contentEnd: line, next: line + 1 };
      continue;
    }
    if (!innermost.nests) continue;
    const nested = FENCE.exec(text);
    if (nested) open.push({ fence: nested[1], nests: fenceKind(nested[2]?.toLowerCase()) !== 'code' });
  }
  return { contentEnd: endLine, next: endLine };
}

/** Code as Zulip's highlighter sees it: trailing spaces dropped, blank lines trimmed at both ends. */
function codeContent(lines: string): string {
  const code = lines
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n');
  let start = 0;
  let end = code.length;
  while (start < end && code.charCodeAt(start) === NEWLINE) start++;
  while (end > start && code.charCodeAt(end - 1) === NEWLINE) end--;
  return code.slice(start, end);
}

/** Parses lines `[from, to)` as markdown inside the current container. */
function tokenizeInside(state: StateBlock, from: number, to: number, parentType: string): void {
  const oldParentType = state.parentType;
  const oldLineMax = state.lineMax;
  state.parentType = parentType;
  state.lineMax = to;
  state.md.block.tokenize(state, from, to);
  state.parentType = oldParentType;
  state.lineMax = oldLineMax;
}

function pushQuote(state: StateBlock, startLine: number, contentEnd: number, fence: string): void {
  const open = state.push('blockquote_open', 'blockquote', 1);
  open.markup = fence;
  open.map = [startLine, contentEnd];
  tokenizeInside(state, startLine + 1, contentEnd, 'blockquote');
  state.push('blockquote_close', 'blockquote', -1).markup = fence;
}

function pushSpoiler(state: StateBlock, startLine: number, contentEnd: number, header: string | undefined): void {
  state.push(SPOILER_OPEN, 'div', 1).map = [startLine, contentEnd];
  const headerText = header?.trim();
  if (headerText) {
    state.push('paragraph_open', 'p', 1).map = [startLine, startLine + 1];
    const inline = state.push('inline', '', 0);
    inline.content = headerText;
    inline.map = [startLine, startLine + 1];
    inline.children = [];
    state.push('paragraph_close', 'p', -1);
  }
  state.push(SPOILER_CONTENT, 'div', 0);
  tokenizeInside(state, startLine + 1, contentEnd, 'spoiler');
  state.push(SPOILER_CLOSE, 'div', -1);
}

/** Block rule replacing markdown-it's `fence`. */
export function fenceRule(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (state.sCount[startLine] - state.blkIndent >= 4) return false;
  const first = state.src.charCodeAt(state.bMarks[startLine] + state.tShift[startLine]);
  if (first !== BACKTICK && first !== TILDE) return false;
  const match = FENCE.exec(lineText(state, startLine));
  if (!match) return false;
  if (silent) return true;

  const [, fence, rawLanguage, header] = match;
  const language = rawLanguage?.toLowerCase();
  const kind = fenceKind(language);
  const { contentEnd, next } = findClose(state, startLine, endLine, { fence, nests: kind !== 'code' });
  const raw = state.getLines(startLine + 1, contentEnd, state.sCount[startLine], false);
  // Zulip drops a block with no lines at all, and we drop quotes and spoilers with only blank ones.
  const hasLines = contentEnd > startLine + 1;
  if (kind === 'code' && hasLines) {
    const token = state.push('fence', 'code', 0);
    token.info = language ?? '';
    token.content = codeContent(raw);
    token.markup = fence;
    token.map = [startLine, next];
  } else if (hasLines && raw.trim() !== '') {
    if (kind === 'quote') pushQuote(state, startLine, contentEnd, fence);
    else pushSpoiler(state, startLine, contentEnd, header);
  }
  state.line = next;
  return true;
}

function codeBlockHtml(code: string, language: string): string {
  if (!language) {
    return `<div class="codehilite"><pre><span></span><code>${escapeHighlightedCode(code)}\n</code></pre></div>\n`;
  }
  // Zulip re-serialises a block with a language through lxml, which unescapes the quotes again.
  const lexer = codeLanguageName(language);
  const body = highlightCode(code, language, lexer) ?? escapeText(code);
  return `<div class="codehilite" data-code-language="${escapeAttribute(lexer)}"><pre><span></span><code>${body}\n</code></pre></div>\n`;
}

export const renderFence: RendererRule = (tokens, idx) => codeBlockHtml(tokens[idx].content, tokens[idx].info);

/** Indented (four-space) code blocks look the same as fences without a language. */
export const renderIndentedCode: RendererRule = (tokens, idx) => codeBlockHtml(codeContent(tokens[idx].content), '');

export const renderSpoilerOpen: RendererRule = () => '<div class="spoiler-block"><div class="spoiler-header">\n';
export const renderSpoilerContent: RendererRule = () => '</div><div class="spoiler-content" aria-hidden="true">\n';
export const renderSpoilerClose: RendererRule = () => '</div></div>\n';
