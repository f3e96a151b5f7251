/**
 * Uploaded files in messages: their /user_uploads/… paths need credentials, which a browser does
 * not send for <img src>. Each is swapped for the short-lived URL that GET /api/v1/user_uploads/…
 * hands out (Zulip's way; valid 60 s, long enough for the browser to load and cache it), fetched
 * with the Authorization header, so no key ever appears in a URL.
 */
import type { Api } from './client.js';

const REUSE_MS = 45_000;
const cache = new Map<string, { url: Promise<string>; at: number }>();

/** `/user_uploads/thumbnail/2/ab/cd/x.png/840x560.webp` and `/user_uploads/2/ab/cd/x.png` → `2/ab/cd/x.png`. */
export function uploadPathOf(src: string): string | undefined {
  let path: string;
  try {
    path = new URL(src, location.origin).pathname;
  } catch {
    return undefined;
  }
  if (path.startsWith('/user_uploads/thumbnail/')) {
    const rest = path.slice('/user_uploads/thumbnail/'.length);
    return rest.slice(0, rest.lastIndexOf('/'));
  }
  if (path.startsWith('/user_uploads/') && !path.startsWith('/user_uploads/temporary/')) return path.slice('/user_uploads/'.length);
  return undefined;
}

export function temporaryUrl(api: Api, path: string, fresh = false): Promise<string> {
  const known = cache.get(path);
  if (known && !fresh && Date.now() - known.at < REUSE_MS) return known.url;
  const url = api.get<{ url: string }>(`/user_uploads/${path}`).then((answer) => answer.url);
  cache.set(path, { url, at: Date.now() });
  url.catch(() => cache.delete(path));
  return url;
}

/** Gives every upload image in `root` its short-lived source, and every upload link a click that opens one. */
export function resolveUploads(api: Api, root: HTMLElement): void {
  for (const img of root.querySelectorAll<HTMLImageElement>('img[data-upload]')) {
    const path = uploadPathOf(img.dataset.upload!);
    if (!path || img.dataset.resolved === path) continue;
    img.dataset.resolved = path;
    temporaryUrl(api, path).then((url) => (img.src = url), () => img.classList.add('broken'));
    // An expired URL (a re-render after a minute) is asked for again, once.
    img.onerror = () => {
      if (img.dataset.retried) return;
      img.dataset.retried = '1';
      temporaryUrl(api, path, true).then((url) => (img.src = url), () => img.classList.add('broken'));
    };
  }
  for (const link of root.querySelectorAll<HTMLAnchorElement>('a[data-upload]')) {
    if (link.dataset.bound) continue;
    link.dataset.bound = '1';
    link.addEventListener('click', (event) => {
      const path = uploadPathOf(link.dataset.upload!);
      if (!path) return;
      event.preventDefault();
      const opened = window.open('about:blank', '_blank', 'noopener=no');
      temporaryUrl(api, path, true).then((url) => {
        if (opened) opened.location.href = url;
        else location.assign(url);
      });
    });
  }
}
