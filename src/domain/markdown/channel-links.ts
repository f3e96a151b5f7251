/** Channel, topic and message links: `#**Denmark**`, `#**Denmark>topic**`, `#**Denmark>topic@123**`. */
import type { StateInline } from 'markdown-it';
import { renderState, type MarkdownContext } from './context.js';
import { pushElement, type InlineElement } from './elements.js';
import { matchAt } from './inline-match.js';
import { mayStartMention } from './mentions.js';
import { channelNarrowPath, topicNarrowPath } from './narrow-url.js';

const MESSAGE_LINK = /#\*\*([^*>]+)>([^*]+)@(\d+)\*\*/y;
const TOPIC_LINK = /#\*\*([^*>]+)>([^*]+)\*\*/y;
const CHANNEL_LINK = /#\*\*([^*]+)\*\*/y;
const HASH = 0x23;

// The channel's own spelling is used: lookups are case-insensitive, Zulip's exact.
export function channelLinkElement(context: MarkdownContext, name: string): InlineElement | undefined {
  const channel = context.channelByName(name);
  if (!channel) return undefined;
  return {
    tag: 'a',
    attributes: [
      ['class', 'stream'],
      ['data-stream-id', String(channel.id)],
      ['href', channelNarrowPath(channel.id, channel.name)],
    ],
    text: `#${channel.name}`,
  };
}

export function topicLinkElement(context: MarkdownContext, name: string, topic: string): InlineElement | undefined {
  const channel = context.channelByName(name);
  if (!channel) return undefined;
  return {
    tag: 'a',
    attributes: [
      ['class', 'stream-topic'],
      ['data-stream-id', String(channel.id)],
      ['href', topicNarrowPath(channel.id, channel.name, topic)],
    ],
    text: `#${channel.name} > ${topic}`,
  };
}

export function messageLinkElement(
  context: MarkdownContext,
  name: string,
  topic: string,
  messageId: string,
): InlineElement | undefined {
  const channel = context.channelByName(name);
  if (!channel) return undefined;
  return {
    tag: 'a',
    attributes: [
      ['class', 'message-link'],
      ['href', `${topicNarrowPath(channel.id, channel.name, topic)}/near/${messageId}`],
    ],
    text: `#${channel.name} > ${topic} @ 💬`,
  };
}

/** Tries the most specific form first; an unknown channel leaves the text to the other rules. */
export function channelLinkRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== HASH || !mayStartMention(state.src, state.pos)) return false;
  const { context } = renderState(state.env);
  let length = 0;
  let element: InlineElement | undefined;
  let match = matchAt(MESSAGE_LINK, state);
  if (match) {
    element = messageLinkElement(context, match[1], match[2], match[3]);
    length = match[0].length;
  }
  if (!element && (match = matchAt(TOPIC_LINK, state))) {
    element = topicLinkElement(context, match[1], match[2]);
    length = match[0].length;
  }
  if (!element && (match = matchAt(CHANNEL_LINK, state))) {
    element = channelLinkElement(context, match[1]);
    length = match[0].length;
  }
  if (!element) return false;
  pushElement(state, silent, element);
  state.pos += length;
  return true;
}
