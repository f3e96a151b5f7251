/**
 * Previews of uploaded images, as Zulip 9+ renders them: after the paragraph holding a link to
 * an uploaded image, `<div class="message_inline_image">` with the link around the image's
 * thumbnail (`/user_uploads/thumbnail/{path_id}/840x560.webp`) and its original dimensions.
 */
import type { RendererRule, StateCore, Token } from 'markdown-it';
import { defaultThumbnail, UPLOADS_URL_PREFIX } from '../uploads.js';
import { renderState } from './context.js';
import { renderAttributes, type Attributes } from './html.js';

export const INLINE_IMAGE_TOKEN = 'zulip_inline_image';

interface Preview {
  href: string;
  title: string;
  thumbnail: string;
  animated: boolean;
  dimensions: string;
}

/** The uploaded images linked from one paragraph's inline content, in order, each once. */
function previewsIn(state: StateCore, inline: Token): Preview[] {
  const { context } = renderState(state.env);
  const children = inline.children ?? [];
  const previews: Preview[] = [];
  for (let i = 0; i < children.length; i++) {
    if (children[i].type !== 'link_open') continue;
    const href = String(children[i].attrGet('href') ?? '');
    if (!href.startsWith(UPLOADS_URL_PREFIX) || previews.some((p) => p.href === href)) continue;
    const pathId = href.slice(UPLOADS_URL_PREFIX.length);
    const image = context.uploadPreview?.(pathId);
    if (!image) continue;
    let title = '';
    for (let j = i + 1; j < children.length && children[j].type !== 'link_close'; j++) title += children[j].content;
    const { url, animated } = defaultThumbnail(pathId, image);
    previews.push({ href, title, thumbnail: url, animated, dimensions: `${image.width}x${image.height}` });
  }
  return previews;
}

/** Core rule: a preview token after each paragraph that links uploaded images. */
export function inlineImagesRule(state: StateCore): void {
  const tokens = state.tokens;
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i].type !== 'paragraph_close' || tokens[i - 1]?.type !== 'inline') continue;
    const previews = previewsIn(state, tokens[i - 1]);
    if (previews.length === 0) continue;
    const token = new state.Token(INLINE_IMAGE_TOKEN, 'div', 0);
    token.meta = { previews };
    tokens.splice(i + 1, 0, token);
    i++;
  }
}

export const renderInlineImages: RendererRule = (tokens, idx) => {
  const previews = (tokens[idx].meta as { previews: Preview[] }).previews;
  let html = '';
  for (const preview of previews) {
    const link: Attributes = preview.title === '' ? [['href', preview.href]] : [['href', preview.href], ['title', preview.title]];
    const image: Attributes = [
      ...(preview.animated ? [['data-animated', 'true'] as const] : []),
      ['data-original-dimensions', preview.dimensions],
      ['src', preview.thumbnail],
    ];
    html += `<div class="message_inline_image"><a${renderAttributes(link)}><img${renderAttributes(image)}></a></div>`;
  }
  return html;
};
