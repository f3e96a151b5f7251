/** Zulip's search highlighting: the searched words wrapped in `<span class="highlight">` in a message's HTML and topic. */

export const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Wraps the searched words in the text parts of some HTML with Zulip's highlight span. */
export function highlight(html: string, words: readonly string[]): string {
  if (words.length === 0) return html;
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}_])(${words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})[\\p{L}\\p{N}_]*`, 'giu');
  return html.split(/(<[^>]*>)/).map((part) => (part.startsWith('<') ? part : part.replace(pattern, '<span class="highlight">$&</span>'))).join('');
}

/** `match_content` and `match_subject` of a message found by a search for `words` (none: the content and topic as they are). */
export function searchFields(renderedContent: string, topic: string, words: readonly string[]): { match_content: string; match_subject: string } {
  return { match_content: highlight(renderedContent, words), match_subject: highlight(escapeHtml(topic), words) };
}
