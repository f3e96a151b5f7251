/**
 * The text of a mobile notification from a rendered message (Zulip's get_mobile_push_content
 * and truncate_content in zerver/lib/push_notifications.py): emoji as characters, images by
 * their alt text, quotes as `> ` lines, ordered lists numbered, spoilers as their header and
 * `(…)`, TeX as its source; then cut to 200 characters.
 */

interface Element {
  tag: string;
  attrs: Record<string, string>;
  children: Node[];
}
type Node = Element | string;

const VOID = new Set(['br', 'img', 'hr', 'input', 'meta', 'link', 'wbr', 'source', 'area', 'col', 'embed']);
const TAG = /<\/?([a-zA-Z][\w-]*)((?:[^<>"']|"[^"]*"|'[^']*')*)>|<!--[\s\S]*?-->/g;
const ATTR = /([^\s=/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[name.toLowerCase()] ?? whole;
  });
}

/** A forgiving parse of a rendered message into a tree (the renderer's output is well formed). */
export function parseFragment(html: string): Element {
  const root: Element = { tag: 'root', attrs: {}, children: [] };
  const stack: Element[] = [root];
  let last = 0;
  for (const match of html.matchAll(TAG)) {
    const top = stack[stack.length - 1]!;
    if (match.index > last) top.children.push(decodeEntities(html.slice(last, match.index)));
    last = match.index + match[0].length;
    if (match[1] === undefined) continue; // a comment
    const tag = match[1].toLowerCase();
    if (match[0][1] === '/') {
      const at = stack.map((e) => e.tag).lastIndexOf(tag);
      if (at > 0) stack.length = at;
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const [, name, a, b, c] of (match[2] ?? '').matchAll(ATTR)) attrs[name!.toLowerCase()] = decodeEntities(a ?? b ?? c ?? '');
    const element: Element = { tag, attrs, children: [] };
    top.children.push(element);
    if (!VOID.has(tag) && !match[0].endsWith('/>')) stack.push(element);
  }
  if (last < html.length) stack[stack.length - 1]!.children.push(decodeEntities(html.slice(last)));
  return root;
}

const classes = (element: Element) => (element.attrs.class ?? '').split(/\s+/);

function text(node: Node): string {
  return typeof node === 'string' ? node : node.children.map(text).join('');
}

/** TeX keeps its source (Zulip's change_katex_to_raw_latex). */
function katexSource(element: Element): string | undefined {
  if (!classes(element).includes('katex')) return undefined;
  const find = (node: Node): string | undefined => {
    if (typeof node === 'string') return undefined;
    if (node.tag === 'annotation') return text(node);
    for (const child of node.children) {
      const found = find(child);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return `$$${find(element) ?? text(element)}$$`;
}

function emojiCharacter(element: Element): string | undefined {
  if (!classes(element).includes('emoji')) return undefined;
  const code = classes(element).find((name) => name.startsWith('emoji-'))?.slice('emoji-'.length);
  if (!code || !/^[0-9a-f]+(-[0-9a-f]+)*$/i.test(code)) return undefined;
  return code.split('-').map((hex) => String.fromCodePoint(parseInt(hex, 16))).join('');
}

function orderedList(element: Element, depth: number): string {
  let counter = Number(element.attrs.start) || 1;
  const indent = depth > 0 ? '\n' + '  '.repeat(depth) : '';
  return element.children
    .filter((child): child is Element => typeof child !== 'string' && child.tag === 'li')
    .map((li) => `${indent}${counter++}. ${plain(li, depth + 1).trim()}`)
    .join('\n');
}

function plain(node: Node, olDepth = 0): string {
  if (typeof node === 'string') return node;
  const emoji = emojiCharacter(node);
  if (emoji !== undefined) return emoji;
  const tex = katexSource(node);
  if (tex !== undefined) return tex;
  if (node.tag === 'img') return node.attrs.alt ?? '';
  if (node.tag === 'ol') return orderedList(node, olDepth);
  if (classes(node).includes('spoiler-block')) {
    const header = node.children.find((child): child is Element => typeof child !== 'string' && classes(child).includes('spoiler-header'));
    const title = header ? plain(header, olDepth).trim() : '';
    return title === '' ? '(…)\n' : `${title} (…)\n`;
  }
  const inner = node.children.map((child) => plain(child, olDepth)).join('');
  if (node.tag === 'blockquote') return inner.split('\n').filter((line) => line.trim() !== '').map((line) => `> ${line}\n`).join('');
  return inner;
}

/** Zulip's get_mobile_push_content. */
export function mobilePushContent(renderedHtml: string): string {
  return plain(parseFragment(renderedHtml));
}

/** Zulip's truncate_content: 200 characters, then an ellipsis. */
export function truncateContent(content: string): { content: string; truncated: boolean } {
  const chars = Array.from(content);
  if (chars.length <= 200) return { content, truncated: false };
  return { content: chars.slice(0, 200).join('') + '…', truncated: true };
}
