/**
 * Escaping text for HTML outside messages (the join page, mail): every character that can end a
 * text or attribute context. That is the set Zulip's code blocks escape, so one escaper serves both.
 */
export { escapeHighlightedCode as escapeHtml } from './markdown/html.js';
