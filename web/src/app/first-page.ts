/**
 * The first screen's messages asked for just before POST /register instead of after it (one round
 * trip less on every page load, and shown as soon as they are here), and the check that makes this
 * safe: a message sent between the two snapshots is in neither the page nor the new queue's events,
 * so when the server has a message newer than the page's newest, the messages after it are fetched
 * once more.
 */
import type { Api } from '../api/client.js';
import { apiNarrow, HOME, narrowFromPath, type Narrow } from '../state/narrow.js';
import type { FetchedPage } from '../state/messages.js';
import { pageFromHash, pageFromPath } from '../state/pages.js';

export interface FirstPage {
  narrow: Narrow;
  page: Promise<FetchedPage>;
}

/** The narrow the address shows (as the Shell will show it), or none when the address is a page (Inbox, settings…). */
export function narrowOfAddress(path: string, hash: string): Narrow | undefined {
  if (pageFromHash(hash) || pageFromPath(path)) return undefined;
  return narrowFromPath(path) ?? HOME;
}

/** The newest page of a narrow (the same request App.load makes). */
export function newestPage(api: Api, narrow: Narrow, size: number): Promise<FetchedPage> {
  return api.get<FetchedPage>('/messages', { anchor: 'newest', num_before: size, num_after: 0, narrow: apiNarrow(narrow), apply_markdown: true, client_gravatar: true });
}

/** Starts fetching the first screen's page now, before the registration it would otherwise wait for. */
export function prefetchFirstPage(api: Api, size: number): FirstPage | undefined {
  const narrow = narrowOfAddress(location.pathname, location.hash);
  return narrow ? { narrow, page: newestPage(api, narrow, size) } : undefined;
}

/**
 * The messages after the page's newest, when the registration saw a newer one (it may be one of
 * this narrow's that arrived between the page and the queue); undefined when nothing can be missing.
 */
export function catchUp(api: Api, narrow: Narrow, page: FetchedPage, maxMessageId: number, size: number): Promise<FetchedPage> | undefined {
  if (!page.found_newest) return undefined;
  const newest = page.messages.reduce((max, m) => Math.max(max, m.id), 0);
  if (maxMessageId <= newest) return undefined;
  return api.get<FetchedPage>('/messages', { anchor: newest, include_anchor: false, num_before: 0, num_after: size, narrow: apiNarrow(narrow), apply_markdown: true, client_gravatar: true });
}
