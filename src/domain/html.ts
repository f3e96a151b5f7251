/**
 * The one home of HTML escaping. `escapeHtml` escapes text for HTML outside messages (the join
 * page, mail): every character that can end a text or attribute context. That is the set Zulip's
 * code blocks escape, so one escaper serves both. `escapeText` leaves quotes alone, as Zulip's
 * text does; `escapeAsDjango` is Django's `escape`, which Zulip applies to names in some errors.
 */
export { escapeHighlightedCode as escapeHtml, escapeText } from './markdown/html.js';

const DJANGO_ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };

/** django.utils.html.escape: both quotes too, the single one as `&#x27;`. */
export function escapeAsDjango(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => DJANGO_ENTITIES[ch]);
}
