/** Emoji in messages: `:name:` syntax (realm, Zulip extra, Unicode) and literal Unicode emoji in text. */
import type { RendererRule, StateInline } from 'markdown-it';
import { unicodeEmojiCode, unicodeEmojiName, ZULIP_EXTRA_EMOJI } from '../emoji.js';
import { renderState, type MarkdownContext } from './context.js';
import { pushElement, type InlineElement } from './elements.js';
import { escapeText, renderAttributes } from './html.js';
import { matchAt } from './inline-match.js';

const EMOJI_SYNTAX = /:([\w+-]+):/y;
const COLON = 0x3a;

/** Zulip serves its extra emoji from a fixed path, deliberately not a static-files URL. */
const ZULIP_EMOJI_URL = '/static/generated/emoji/images/emoji/unicode/zulip.png';

// Unicode's emoji sequence grammar (UTS #51), as Zulip matches it.
const EMOJI_ELEMENT = String.raw`(?:\p{RI}\p{RI}|\p{Emoji}(?:\p{Emoji_Modifier}|\uFE0F\u20E3?|[\u{E0020}-\u{E007E}]+\u{E007F})?)`;
const POSSIBLE_EMOJI = new RegExp(`${EMOJI_ELEMENT}(?:\\u200D${EMOJI_ELEMENT})*`, 'gu');
/** Lone digits, arrows and the like are emoji only with a presentation selector. */
const TEXT_PRESENTATION = /^\P{Emoji_Presentation}\u20E3?$/u;
const NON_ASCII = /[^\x00-\x7f]/;
const VARIATION_SELECTOR = 0xfe0f;

function emojiTitle(name: string): string {
  return name.replaceAll('_', ' ');
}

function imageEmoji(name: string, url: string): InlineElement {
  return {
    tag: 'img',
    attributes: [
      ['alt', `:${name}:`],
      ['class', 'emoji'],
      ['src', url],
      ['title', emojiTitle(name)],
    ],
    text: '',
  };
}

function unicodeEmojiAttributes(name: string, code: string): [string, string][] {
  const title = emojiTitle(name);
  return [
    ['aria-label', title],
    ['class', `emoji emoji-${code}`],
    ['role', 'img'],
    ['title', title],
  ];
}

/** Realm emoji shadow Zulip's and Unicode's; an unknown name stays text. */
export function emojiElement(context: MarkdownContext, name: string): InlineElement | undefined {
  const realm = context.realmEmoji?.(name);
  if (realm) return imageEmoji(name, realm.url);
  if (Object.hasOwn(ZULIP_EXTRA_EMOJI, name)) return imageEmoji(name, ZULIP_EMOJI_URL);
  const code = unicodeEmojiCode(name);
  if (code === undefined) return undefined;
  return { tag: 'span', attributes: unicodeEmojiAttributes(name, code), text: `:${name}:` };
}

export function emojiRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== COLON) return false;
  const match = matchAt(EMOJI_SYNTAX, state);
  if (!match) return false;
  const element = emojiElement(renderState(state.env).context, match[1]);
  if (!element) return false;
  pushElement(state, silent, element);
  state.pos += match[0].length;
  return true;
}

/** Zulip's code for a typed emoji: its codepoints without U+FE0F. */
function codeOf(emoji: string): string {
  const parts: string[] = [];
  for (const char of emoji) {
    const codepoint = char.codePointAt(0) as number;
    if (codepoint !== VARIATION_SELECTOR) parts.push(codepoint.toString(16).padStart(4, '0'));
  }
  return parts.join('-');
}

function renderKnownEmoji(sequence: string): string {
  if (TEXT_PRESENTATION.test(sequence)) return escapeText(sequence);
  const code = codeOf(sequence);
  const name = unicodeEmojiName(code);
  if (name === undefined) return escapeText(sequence);
  return `<span${renderAttributes(unicodeEmojiAttributes(name, code))}>:${escapeText(name)}:</span>`;
}

/** Text, escaped Zulip's way, with each known Unicode emoji wrapped in its emoji span. */
export const renderTextWithEmoji: RendererRule = (tokens, idx) => {
  const text = tokens[idx].content;
  // Every emoji Zulip recognises has a non-ASCII codepoint; most messages have none.
  if (!NON_ASCII.test(text)) return escapeText(text);
  let html = '';
  let last = 0;
  for (const match of text.matchAll(POSSIBLE_EMOJI)) {
    html += escapeText(text.slice(last, match.index)) + renderKnownEmoji(match[0]);
    last = match.index + match[0].length;
  }
  return html + escapeText(text.slice(last));
};
