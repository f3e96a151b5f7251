/**
 * The client's pages that are not message feeds, and their addresses: a path of their own
 * (`/inbox`), and Zulip's hash addresses (`#inbox`, `#recent`, `#drafts`, `#scheduled`), which
 * lead to the same page.
 */
export const PAGES = ['inbox', 'recent', 'drafts', 'scheduled', 'settings', 'admin'] as const;
export type Page = (typeof PAGES)[number];

/** Zulip's older names for the same pages. */
const HASH_ALIASES: Record<string, Page> = { recent_topics: 'recent', 'recent-conversations': 'recent', 'organization': 'admin' };

export function isPage(value: unknown): value is Page {
  return typeof value === 'string' && (PAGES as readonly string[]).includes(value);
}

export function pageFromPath(path: string): Page | undefined {
  const name = path.replace(/^\/+|\/+$/g, '');
  return isPage(name) ? name : undefined;
}

/** `#inbox`, `#recent`, `#settings/profile` (a page's sub-address leads to the page). */
export function pageFromHash(hash: string): Page | undefined {
  const name = decodeURIComponent(hash.replace(/^#/, '')).split('/')[0]!.toLowerCase();
  return isPage(name) ? name : HASH_ALIASES[name];
}
