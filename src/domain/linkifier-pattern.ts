/**
 * A linkifier's pattern is a Python (re2) regular expression; the renderer runs it as a
 * JavaScript one. This file translates the one into the other, refusing what re2 refuses
 * (backreferences, lookaround) with re2's words, as Zulip's clients translate them too:
 * `(?P<name>…)` becomes `(?<name>…)`, leading inline flags become RegExp flags, other inline
 * flags are dropped, escapes JavaScript's Unicode mode refuses become code points.
 */

export interface TranslatedPattern {
  source: string;
  /** RegExp flags from leading inline flags (`i`, `m`, `s`). */
  flags: string;
  /** Named groups, in order. */
  groups: string[];
}

export type PatternResult = TranslatedPattern | { error: string };

/** What JavaScript may keep escaped in Unicode mode (besides letters and digits). */
const SYNTAX = new Set([...'^$\\.*+?()[]{}|/']);
const LEADING_FLAGS = /^\(\?([imsxU]+)\)/;

function translateEscape(next: string, inClass: boolean): string | { error: string } {
  if (/[1-9]/.test(next) && !inClass) return { error: `invalid escape sequence: \\${next}` };
  if (next === 'A' && !inClass) return '^';
  if (next === 'z' && !inClass) return '(?![\\s\\S])';
  if (next === 'Z' || next === 'k') return { error: `invalid escape sequence: \\${next}` };
  if (/[A-Za-z0-9]/.test(next)) return `\\${next}`;
  if (SYNTAX.has(next) || (next === '-' && inClass)) return `\\${next}`;
  return `\\u{${next.codePointAt(0)!.toString(16)}}`;
}

/** `(?…` at `i`: a named group, a non-capturing group, inline flags; or re2's refusal. */
function translateGroup(pattern: string, i: number, groups: string[]): { text: string; skip: number } | { error: string } {
  const rest = pattern.slice(i);
  const named = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest);
  if (named) {
    groups.push(named[1]);
    return { text: `(?<${named[1]}>`, skip: named[0].length };
  }
  if (rest.startsWith('(?P=')) return { error: 'invalid named capture group: (?P=' };
  if (rest.startsWith('(?=') || rest.startsWith('(?!')) return { error: `invalid perl operator: ${rest.slice(0, 3)}` };
  if (rest.startsWith('(?<')) return { error: 'invalid perl operator: (?<' };
  if (rest.startsWith('(?:')) return { text: '(?:', skip: 3 };
  const flags = /^\(\?[imsxU-]+(\)|:)/.exec(rest);
  // JavaScript (Node 20) has no inline modifiers: dropped, as Zulip's clients drop them.
  if (flags) return { text: flags[1] === ')' ? '' : '(?:', skip: flags[0].length };
  return { error: `missing argument to repetition operator: ?` };
}

/** re2's words for what the JavaScript engine refused. */
function syntaxError(pattern: string, message: string): string {
  if (/Unterminated group/i.test(message)) return `missing ): ${pattern}`;
  if (/Unmatched '\)'/i.test(message)) return `unexpected ): ${pattern}`;
  if (/Unterminated character class/i.test(message)) return `missing ]: ${pattern.slice(pattern.lastIndexOf('['))}`;
  if (/Nothing to repeat/i.test(message)) return 'missing argument to repetition operator: ' + (/[*+?{]/.exec(pattern)?.[0] ?? '*');
  if (/Duplicate capture group name/i.test(message)) return 'duplicate capture group name';
  return `invalid regular expression: ${pattern}`;
}

/** Translates a linkifier pattern, or says (as re2 would) why it is not a regular expression. */
export function translatePattern(pattern: string): PatternResult {
  let flags = '';
  let source = '';
  const groups: string[] = [];
  let i = 0;
  const leading = LEADING_FLAGS.exec(pattern);
  if (leading) {
    flags = [...new Set(leading[1].replace(/[xU]/g, ''))].join('');
    i = leading[0].length;
  }
  let inClass = false;
  while (i < pattern.length) {
    const ch = pattern[i];
    if (ch === '\\') {
      if (i + 1 >= pattern.length) return { error: 'trailing \\' };
      const escaped = translateEscape(pattern[i + 1], inClass);
      if (typeof escaped !== 'string') return escaped;
      source += escaped;
      i += 2;
    } else if (inClass) {
      source += ch === '[' ? '\\[' : ch;
      if (ch === ']') inClass = false;
      i += 1;
    } else if (ch === '[') {
      inClass = true;
      // Python reads a `]` right after `[` or `[^` as a literal, JavaScript as the end.
      const negated = pattern[i + 1] === '^';
      source += negated ? '[^' : '[';
      i += negated ? 2 : 1;
      if (pattern[i] === ']') {
        source += '\\]';
        i += 1;
      }
    } else if (ch === '(' && pattern[i + 1] === '?') {
      const group = translateGroup(pattern, i, groups);
      if ('error' in group) return group;
      source += group.text;
      i += group.skip;
    } else {
      source += ch;
      i += 1;
    }
  }
  try {
    new RegExp(source, `u${flags}`);
  } catch (error) {
    return { error: syntaxError(pattern, (error as Error).message) };
  }
  return { source, flags, groups };
}
