/**
 * Pygments' short token classes (`k`, `s2`, `nf`, …), which Zulip's code blocks carry and clients
 * colour, from highlight.js scopes: the one table that says which scope becomes which class, and
 * how text highlight.js leaves unmarked (names, operators, punctuation) is classed as Pygments does.
 */

/** highlight.js scope (its `hljs-…` classes joined by dots, suffixes dropped) → Pygments class; '' marks nothing. */
const SCOPE_CLASSES: Readonly<Record<string, string>> = {
  keyword: 'k',
  built_in: 'nb',
  type: 'kt',
  literal: 'kc',
  number: 'm',
  operator: 'o',
  punctuation: 'p',
  property: 'py',
  regexp: 'sr',
  string: 's',
  'char.escape': 'se',
  subst: 'si',
  symbol: 'ss',
  variable: 'nv',
  'variable.language': 'bp',
  'variable.constant': 'no',
  title: 'nf',
  'title.class': 'nc',
  // Pygments names base classes and called functions as plain names.
  'title.class.inherited': 'n',
  'title.function': 'nf',
  'title.function.invoke': 'n',
  comment: 'c',
  doctag: 'cs',
  meta: 'cp',
  'meta.prompt': 'gp',
  'meta.keyword': 'cp',
  'meta.string': 'cpf',
  section: 'gh',
  name: 'nt',
  attr: 'na',
  attribute: 'na',
  bullet: 'k',
  code: 'sb',
  emphasis: 'ge',
  strong: 'gs',
  formula: 'sx',
  link: 'nl',
  quote: 'ge',
  'selector-tag': 'nt',
  'selector-id': 'nn',
  'selector-class': 'nc',
  'selector-attr': 'na',
  'selector-pseudo': 'nd',
  'template-tag': 'cp',
  'template-variable': 'nv',
  addition: 'gi',
  deletion: 'gd',
  // Containers: what they hold is classed by its own scopes or as plain text.
  params: '',
  class: '',
  function: '',
  tag: '',
};

/** The Pygments class for a highlight.js scope such as `title.function.invoke`; '' for containers and unknown scopes. */
export function scopeClass(scope: string): string {
  for (let name = scope; name !== ''; name = name.slice(0, Math.max(name.lastIndexOf('.'), 0))) {
    const found = SCOPE_CLASSES[name];
    if (found !== undefined) return found;
  }
  return '';
}

/** Pygments' finer classes of a number, a string, a comment or a decorator, read from the token's text. */
export function refineClass(cls: string, text: string): string {
  switch (cls) {
    case 'm':
      if (/^0[xX]/.test(text)) return 'mh';
      if (/^0[bB]/.test(text)) return 'mb';
      if (/^0[oO]/.test(text)) return 'mo';
      return /[.eE]/.test(text) && !/^0[xX]/.test(text) ? 'mf' : 'mi';
    case 's': {
      const quote = text.replace(/^[a-zA-Z]+/, '').charAt(0);
      return quote === '"' ? 's2' : quote === "'" ? 's1' : quote === '`' ? 'sb' : 's';
    }
    case 'c':
      return text.startsWith('/*') ? 'cm' : text.startsWith('#') || text.startsWith('//') || text.startsWith('--') ? 'c1' : 'c';
    case 'cp':
      return text.startsWith('@') ? 'nd' : 'cp';
    default:
      return cls;
  }
}

/** Per Pygments lexer: the class of a plain identifier, and names it marks as pseudo-builtins (`bp`). */
const PLAIN_NAMES: Readonly<Record<string, { name: string; pseudo?: readonly string[] }>> = {
  JavaScript: { name: 'nx' },
  TypeScript: { name: 'nx' },
  TSX: { name: 'nx' },
  Python: { name: 'n', pseudo: ['self', 'cls'] },
};

/** One piece of unmarked text: its class ('' for whitespace and other plain text). */
export interface PlainPiece {
  text: string;
  cls: string;
}

const PLAIN_TOKEN = /([\p{L}_$][\p{L}\p{N}_$]*)|(\d[\w.]*)|([\-+*/%=<>!&|^~?@]+)|(\s+)|([^\s\p{L}_$\d\-+*/%=<>!&|^~?@]+)/gu;

/** Splits text highlight.js left unmarked into Pygments' names (`n`), numbers, operators (`o`) and punctuation (`p`). */
export function classifyPlain(text: string, lexer: string): PlainPiece[] {
  const names = PLAIN_NAMES[lexer] ?? { name: 'n' };
  const pieces: PlainPiece[] = [];
  for (const match of text.matchAll(PLAIN_TOKEN)) {
    const [whole, identifier, number, operator, space] = match;
    let cls = 'p';
    if (identifier !== undefined) cls = names.pseudo?.includes(identifier) ? 'bp' : names.name;
    else if (number !== undefined) cls = refineClass('m', number);
    else if (operator !== undefined) cls = 'o';
    else if (space !== undefined) cls = '';
    pieces.push({ text: whole, cls });
  }
  return pieces;
}
