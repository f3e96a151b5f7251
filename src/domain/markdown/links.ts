/** Which links Zulip makes: its scheme allowlist, scheme-less URLs as http, bare addresses as mailto, text as typed. */
import type { MarkdownIt, StateCore } from 'markdown-it';

const ALLOWED_SCHEMES = new Set([
  'http', 'https', 'ftp', 'file',
  // The HTML standard's safelisted schemes.
  'bitcoin', 'geo', 'im', 'irc', 'ircs', 'magnet', 'mailto', 'matrix', 'mms', 'news', 'nntp', 'openpgp4fpr',
  'sip', 'sms', 'smsto', 'ssh', 'tel', 'urn', 'webcal', 'wtai', 'xmpp',
]);
/** File extensions that look like top-level domains; Zulip does not linkify `views.py`. */
const NOT_LINKIFIED_TLDS = new Set(['java', 'md', 'mov', 'py', 'zip']);
const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;
const QUERY_OR_FRAGMENT = /[?#]/;
const HOST_END = /[/?#:]/;

/** What a link's destination becomes before it is checked: Zulip's `sanitize_url` rewriting. */
export function normalizeLink(url: string): string {
  const trimmed = url.trim().replaceAll(' ', '%20');
  if (trimmed === '' || SCHEME.test(trimmed)) return trimmed;
  if (trimmed.startsWith('//')) return `http:${trimmed}`;
  if (trimmed.split(QUERY_OR_FRAGMENT, 1)[0].includes('@')) return `mailto:${trimmed}`;
  if (trimmed.startsWith('/') || trimmed.startsWith('#')) return trimmed; // local links stay relative
  return `http://${trimmed}`;
}

/** A rejected destination leaves the whole `[text](url)` as text, as in Zulip. */
export function validateLink(url: string): boolean {
  const scheme = SCHEME.exec(url);
  if (scheme) return ALLOWED_SCHEMES.has(scheme[1].toLowerCase());
  return url.startsWith('/') || url.startsWith('#');
}

/** Zulip shows a URL as it was typed: no percent-decoding, no punycode. */
export function normalizeLinkText(url: string): string {
  return url;
}

function linkifiedByZulip(match: { schema: string; text: string }): boolean {
  if (match.schema !== '') return true;
  const host = match.text.split(HOST_END, 1)[0];
  return !NOT_LINKIFIED_TLDS.has(host.slice(host.lastIndexOf('.') + 1).toLowerCase());
}

/**
 * Bare domains (`example.com`, `www.zulip.com/foo`) become links as in Zulip, except for names
 * that are really files. markdown-it accepts an empty match list.
 */
export function configureLinkify(md: MarkdownIt): void {
  const linkify = md.linkify.set({ fuzzyLink: true });
  const match = linkify.match.bind(linkify);
  linkify.match = (text) => match(text)?.filter(linkifiedByZulip) ?? null;
}

/** Core rule: `[](url)` and `[  ](url)` show the URL, as Zulip does. */
export function emptyLinkTextRule(state: StateCore): void {
  for (const block of state.tokens) {
    const children = block.type === 'inline' ? block.children : null;
    if (!children) continue;
    for (let i = 0; i < children.length - 1; i++) {
      if (children[i].type !== 'link_open') continue;
      const href = String(children[i].attrGet('href') ?? '');
      const next = children[i + 1];
      if (next.type === 'link_close') {
        const text = new state.Token('text', '', 0);
        text.content = href;
        children.splice(i + 1, 0, text);
      } else if (next.type === 'text' && next.content.trim() === '' && children[i + 2]?.type === 'link_close') {
        next.content = href;
      }
    }
  }
}
