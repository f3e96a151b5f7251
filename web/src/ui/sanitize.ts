/**
 * Message HTML from the server goes through DOMPurify before it reaches the page. Upload images
 * lose their `src` (the browser would ask without credentials) and keep it as `data-upload`, for
 * uploads.ts to swap in a short-lived URL; links open in a new tab without a Referer.
 */
import DOMPurify from 'dompurify';

let hooked = false;

function hook(): void {
  if (hooked) return;
  hooked = true;
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    const el = node as Element;
    if (el.tagName === 'IMG') {
      const src = el.getAttribute('src') ?? '';
      if (isUpload(src)) {
        el.setAttribute('data-upload', src);
        el.removeAttribute('src');
      }
      el.setAttribute('loading', 'lazy');
    }
    if (el.tagName === 'A') {
      const href = el.getAttribute('href') ?? '';
      if (isUpload(href)) el.setAttribute('data-upload', href);
      if (!href.startsWith('#')) {
        el.setAttribute('target', '_blank');
        el.setAttribute('rel', 'noopener noreferrer');
      }
    }
  });
}

function isUpload(url: string): boolean {
  return url.startsWith('/user_uploads/') || url.startsWith(`${location.origin}/user_uploads/`);
}

const cache = new Map<string, string>();
const CACHE_MAX = 5000;

/** The safe HTML of a message (memoised: the same content is sanitised once). */
export function sanitize(html: string): string {
  hook();
  const known = cache.get(html);
  if (known !== undefined) return known;
  const clean = DOMPurify.sanitize(html, { ADD_ATTR: ['target', 'data-upload'], FORBID_TAGS: ['style', 'form', 'input'] });
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
  cache.set(html, clean);
  return clean;
}
