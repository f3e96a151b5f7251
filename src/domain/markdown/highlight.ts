/**
 * Code highlighting as Zulip's code blocks carry it: highlight.js tokenizes, and every token is
 * written as Pygments would, `<span class="k">def</span>`, with Pygments' classes
 * (pygments-classes.ts), same-class neighbours merged and tokens split at line ends.
 */
import { createRequire } from 'node:module';
import { escapeText } from './html.js';
import { classifyPlain, refineClass, scopeClass } from './pygments-classes.js';

/** What this file uses of highlight.js. */
interface Highlighter {
  getLanguage(name: string): { name?: string } | undefined;
  highlight(code: string, options: { language: string; ignoreIllegals: boolean }): { value: string };
}
// Loaded without its type declarations: they pull in the DOM library, which would change the
// types of Node's own fetch and Blob throughout the project. Loaded on the first code block with
// a language, not at start: its ~190 grammars take a while to load, and most processes (tests,
// the admin CLI) never highlight.
let loaded: Highlighter | undefined;
const highlighter = () => (loaded ??= createRequire(import.meta.url)('highlight.js') as Highlighter);

interface Segment {
  text: string;
  cls: string;
}

interface OpenScope {
  cls: string;
  /** The class refined from the scope's first text (a string's quote, a comment's opener). */
  refined?: string;
}

const TAG = /<span class="([^"]*)">|<\/span>|[^<]+/g;
const ENTITIES: Readonly<Record<string, string>> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#x27;': "'", '&#39;': "'" };
const unescape = (html: string) => html.replace(/&(?:amp|lt|gt|quot|#x27|#39);/g, (entity) => ENTITIES[entity]);

/** `hljs-title function_ invoke__` → `title.function.invoke`. */
function scopeOf(classAttribute: string): string {
  const [first, ...rest] = classAttribute.split(' ');
  return [first.replace(/^hljs-/, ''), ...rest.map((part) => part.replace(/_+$/, ''))].join('.');
}

/** Reads highlight.js's HTML (only its spans and escaped text) into classed segments. */
function segments(html: string, lexer: string): Segment[] {
  const stack: OpenScope[] = [];
  const out: Segment[] = [];
  for (const [piece, classAttribute] of html.matchAll(TAG)) {
    if (classAttribute !== undefined) stack.push({ cls: scopeClass(scopeOf(classAttribute)) });
    else if (piece === '</span>') stack.pop();
    else {
      const text = unescape(piece);
      const scope = [...stack].reverse().find((open) => open.cls !== '');
      if (!scope) {
        out.push(...classifyPlain(text, lexer));
        continue;
      }
      scope.refined ??= refineClass(scope.cls, text);
      out.push({ text, cls: scope.refined });
    }
  }
  return out;
}

/** Pygments' HTML: neighbours of one class merged, each span closed before a line end. */
function pygmentsHtml(pieces: readonly Segment[]): string {
  const merged: Segment[] = [];
  for (const piece of pieces) {
    const last = merged[merged.length - 1];
    if (last && last.cls === piece.cls) last.text += piece.text;
    else merged.push({ ...piece });
  }
  let html = '';
  for (const { text, cls } of merged) {
    if (cls === '') {
      html += escapeText(text);
      continue;
    }
    html += text
      .split('\n')
      .map((line) => (line === '' ? '' : `<span class="${cls}">${escapeText(line)}</span>`))
      .join('\n');
  }
  return html;
}

/**
 * The highlighted HTML of `code` in the fence's `language` (lowercased alias), for the Pygments
 * lexer named `lexer`; undefined when the language is unknown or plain text (then the code is
 * shown as it is, as Zulip does with Pygments' text lexer).
 */
export function highlightCode(code: string, language: string, lexer: string): string | undefined {
  const hljs = highlighter();
  const definition = hljs.getLanguage(language);
  if (!definition || definition.name === 'Plain text') return undefined;
  try {
    return pygmentsHtml(segments(hljs.highlight(code, { language, ignoreIllegals: true }).value, lexer));
  } catch {
    return undefined;
  }
}
