/** Zulip-flavoured Markdown → HTML: one markdown-it instance configured like Zulip's renderer, plus the mentions found. */
import MarkdownIt, { type MarkdownIt as Markdown } from 'markdown-it';
import { channelLinkRule } from './channel-links.js';
import { newEnv, type MarkdownContext, type RenderedMessage } from './context.js';
import { ELEMENT_TOKEN, renderElement } from './elements.js';
import { emojiRule, renderTextWithEmoji } from './emoji.js';
import {
  fenceRule,
  renderFence,
  renderIndentedCode,
  renderSpoilerClose,
  renderSpoilerContent,
  renderSpoilerOpen,
  SPOILER_CLOSE,
  SPOILER_CONTENT,
  SPOILER_OPEN,
} from './fences.js';
import { codeSpanRule, literalUnderscoresRule, strikethroughRule } from './inline-syntax.js';
import { emptyLinkTextRule, configureLinkify, normalizeLink, normalizeLinkText, validateLink } from './links.js';
import { groupMentionRule, userMentionRule } from './mentions.js';
import { inlineWithQuoteDepth } from './quotes.js';
import { timeRule } from './time.js';
import { INLINE_IMAGE_TOKEN, inlineImagesRule, renderInlineImages } from './inline-images.js';
import { linkifierRule, topicLinks as linkifyTopic } from './linkifiers.js';
import type { CompiledLinkifier } from '../linkifiers.js';

export type { MarkdownContext, RenderedMessage } from './context.js';

function createMarkdownIt(): Markdown {
  const md = new MarkdownIt('default', { html: false, linkify: true, breaks: true, typographer: false });

  // Zulip has no setext headings, reference links, images, <autolinks> or backslash escapes.
  md.disable(['lheading', 'reference', 'html_block', 'html_inline', 'image', 'autolink', 'escape']);
  md.block.ruler.at('fence', fenceRule, { alt: ['paragraph', 'reference', 'blockquote', 'list'] });
  md.core.ruler.at('inline', inlineWithQuoteDepth);
  md.core.ruler.after('linkify', 'zulip_empty_link_text', emptyLinkTextRule);
  md.core.ruler.after('zulip_empty_link_text', 'zulip_inline_images', inlineImagesRule);
  // Last, on text as it will be shown: linkifiers never reach into links, code or mentions.
  md.core.ruler.push('zulip_linkifiers', linkifierRule);

  md.inline.ruler.at('backticks', codeSpanRule);
  md.inline.ruler.at('strikethrough', strikethroughRule);
  md.inline.ruler2.disable('strikethrough');
  md.inline.ruler.before('strikethrough', 'zulip_literal_underscores', literalUnderscoresRule);
  md.inline.ruler.after('backticks', 'zulip_user_mention', userMentionRule);
  md.inline.ruler.after('zulip_user_mention', 'zulip_channel_link', channelLinkRule);
  md.inline.ruler.after('zulip_channel_link', 'zulip_time', timeRule);
  md.inline.ruler.after('zulip_time', 'zulip_group_mention', groupMentionRule);
  // After linkify, so that the `:` of `https://` is a link's, not an emoji's.
  md.inline.ruler.after('linkify', 'zulip_emoji', emojiRule);

  md.normalizeLink = normalizeLink;
  md.validateLink = validateLink;
  md.normalizeLinkText = normalizeLinkText;
  configureLinkify(md);

  const rules = md.renderer.rules;
  rules.text = renderTextWithEmoji;
  rules.fence = renderFence;
  rules.code_block = renderIndentedCode;
  rules[ELEMENT_TOKEN] = renderElement;
  rules[SPOILER_OPEN] = renderSpoilerOpen;
  rules[SPOILER_CONTENT] = renderSpoilerContent;
  rules[SPOILER_CLOSE] = renderSpoilerClose;
  rules[INLINE_IMAGE_TOKEN] = renderInlineImages;
  return md;
}

// Configured once, never changed afterwards: each render gets its own env.
const md = createMarkdownIt();

function withoutTrailingNewlines(html: string): string {
  let end = html.length;
  while (end > 0 && html.charCodeAt(end - 1) === 0x0a) end--;
  return end === html.length ? html : html.slice(0, end);
}

/** Renders a message's content to Zulip's HTML, and reports whom it notifies. */
export function renderMarkdown(content: string, context: MarkdownContext): RenderedMessage {
  const result: RenderedMessage = {
    html: '',
    mentionedUserIds: new Set(),
    mentionedGroupIds: new Set(),
    streamWildcard: false,
    topicWildcard: false,
  };
  // Zulip joins blocks with newlines but ends without one.
  result.html = withoutTrailingNewlines(md.render(content, newEnv({ context, result, quoted: false })));
  return result;
}

/** A topic's `topic_links`: the linkifiers' matches, then the plain URLs the renderer would link. */
export function topicLinks(topic: string, linkifiers: readonly CompiledLinkifier[]): { text: string; url: string }[] {
  if (topic === '') return [];
  return linkifyTopic(topic, linkifiers, (text) => (md.linkify.match(text) ?? []).map((m) => ({ index: m.index, text: m.raw, url: normalizeLink(m.url) })));
}
