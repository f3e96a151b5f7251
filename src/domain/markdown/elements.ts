/** Zulip's own inline elements (mentions, channel links, emoji, times) as one token type, and the mentions they report. */
import type { RendererRule, StateInline } from 'markdown-it';
import { renderState } from './context.js';
import { escapeText, renderAttributes, type Attributes } from './html.js';

export type Mention =
  | { kind: 'user'; id: number }
  | { kind: 'group'; id: number }
  | { kind: 'stream_wildcard' }
  | { kind: 'topic_wildcard' };

export interface InlineElement {
  tag: string;
  attributes: Attributes;
  /** Shown as is (escaped), never parsed again: Zulip's AtomicString. */
  text: string;
  /** What a non-silent mention notifies; absent for silent ones and for everything else. */
  mention?: Mention;
}

export const ELEMENT_TOKEN = 'zulip_element';

const VOID_TAGS = new Set(['img']);

/** Adds the element unless the rule runs in markdown-it's look-ahead (silent) mode. */
export function pushElement(state: StateInline, silent: boolean, element: InlineElement): void {
  if (silent) return;
  const token = state.push(ELEMENT_TOKEN, element.tag, 0);
  token.meta = { element };
}

/**
 * Mentions are recorded while rendering, not while parsing: only a token that reaches the
 * output counts, whatever look-ahead the parser did on the way.
 */
export const renderElement: RendererRule = (tokens, idx, _options, env) => {
  const element = tokens[idx].meta?.element as InlineElement;
  if (element.mention) recordMention(element.mention, env);
  const open = `<${element.tag}${renderAttributes(element.attributes)}>`;
  if (VOID_TAGS.has(element.tag)) return open;
  return `${open}${escapeText(element.text)}</${element.tag}>`;
};

function recordMention(mention: Mention, env: Parameters<RendererRule>[3]): void {
  const { result } = renderState(env);
  switch (mention.kind) {
    case 'user':
      result.mentionedUserIds.add(mention.id);
      break;
    case 'group':
      result.mentionedGroupIds.add(mention.id);
      break;
    case 'stream_wildcard':
      result.streamWildcard = true;
      break;
    case 'topic_wildcard':
      result.topicWildcard = true;
      break;
  }
}
