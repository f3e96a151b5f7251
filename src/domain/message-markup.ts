/**
 * The Markdown pieces the notification bot's messages are built from (reports, reminders, failed
 * scheduled messages): silent mentions, global times, message links and URLs, unused fences.
 */
import { channelSlug, encodeHashComponent } from './channels.js';
import { topicNarrowPath } from './markdown/narrow-url.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from './realm.js';

export interface Person {
  id: number;
  fullName: string;
}

/** A silent mention: names the user without notifying them. */
export function mention(person: Person): string {
  return `@_**${person.fullName}|${person.id}**`;
}

/** Zulip's datetime_to_global_time, at our resolution of whole seconds. */
export function globalTime(timestampSeconds: number): string {
  return `<time:${new Date(timestampSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00')}>`;
}

// Characters that break the #**channel>topic@id** syntax (Zulip's invalid_stream_topic_regex).
const BREAKS_LINK_SYNTAX = /[`>*&[\]]|\$\$/g;
const LINK_TEXT_ESCAPES: Record<string, string> = {
  '`': '&#96;',
  '>': '&gt;',
  '*': '&#42;',
  '&': '&amp;',
  $$: '&#36;&#36;',
  '[': '&#91;',
  ']': '&#93;',
};

const escapeLinkText = (text: string) => text.replace(BREAKS_LINK_SYNTAX, (match) => LINK_TEXT_ESCAPES[match]);
const breaksLinkSyntax = (text: string) => text.search(BREAKS_LINK_SYNTAX) !== -1;

/** Zulip's get_message_link_syntax: the short link syntax, or a plain Markdown link when a name would break it. */
export function channelMessageLink(channelId: number, channelName: string, topic: string, messageId: number): string {
  if (!breaksLinkSyntax(channelName) && !breaksLinkSyntax(topic)) return `#**${channelName}>${topic}@${messageId}**`;
  const url = `#narrow/channel/${channelSlug(channelId, channelName)}/topic/${encodeHashComponent(topic)}/near/${messageId}`;
  const topicText = topic === '' ? EMPTY_TOPIC_DISPLAY_NAME : topic;
  return `[#${escapeLinkText(channelName)} > ${escapeLinkText(topicText)} @ 💬](${url})`;
}

/** Zulip's message URL of a channel message: its topic's narrow, near the message. */
export function channelMessageUrl(realmUrl: string, channelId: number, channelName: string, topic: string, messageId: number): string {
  return `${realmUrl}${topicNarrowPath(channelId, channelName, topic)}/near/${messageId}`;
}

/** Zulip's pm_message_url over a display_recipient's users: sorted, tagged '-group' for three or more. */
export function directMessageUrl(realmUrl: string, userIds: readonly number[], messageId: number): string {
  const ids = [...new Set(userIds)].sort((a, b) => a - b);
  const slug = ids.join(',') + (ids.length >= 3 ? '-group' : '');
  return `${realmUrl}/#narrow/dm/${slug}/near/${messageId}`;
}

/** Who received a 1:1 direct message: the other participant, or the sender in a self-DM. */
export function oneToOneRecipient(participants: Person[], sender: Person): Person {
  return participants.find((person) => person.id !== sender.id) ?? sender;
}

/** Zulip's get_unused_fence: longer than any backtick fence in the content, so the content can't close it. */
export function unusedFence(content: string): string {
  let length = 3;
  for (const line of content.split('\n')) {
    const fence = /^ {0,3}(`{3,})/.exec(line);
    if (fence) length = Math.max(length, fence[1].length + 1);
  }
  return '`'.repeat(length);
}
