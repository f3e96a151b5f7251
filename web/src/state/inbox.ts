/**
 * The Inbox (Zulip's view of what is unread): direct message conversations first, then channels
 * with their unread topics, each with its count. Muted topics are left out, as Zulip's Inbox
 * leaves them out; a filter keeps the rows whose channel, topic or people match its words.
 */
import type { UnreadConversation } from './unread.js';

export interface InboxDm {
  key: string;
  userIds: number[];
  name: string;
  count: number;
  newestId: number;
  mentioned: boolean;
}

export interface InboxTopic {
  topic: string;
  count: number;
  newestId: number;
  mentioned: boolean;
}

export interface InboxChannel {
  streamId: number;
  name: string;
  pinned: boolean;
  count: number;
  newestId: number;
  topics: InboxTopic[];
}

export interface Inbox {
  dms: InboxDm[];
  channels: InboxChannel[];
}

/** What the Inbox needs to know of the client's state besides the unread messages. */
export interface InboxContext {
  channelName(streamId: number): string;
  pinned(streamId: number): boolean;
  /** Muted for the reader (the topic itself, or its channel unless the topic is unmuted or followed). */
  topicMuted(streamId: number, topic: string): boolean;
  dmName(userIds: readonly number[]): string;
}

export function inbox(conversations: readonly UnreadConversation[], context: InboxContext, filter = ''): Inbox {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const hit = (...texts: string[]) => words.every((w) => texts.some((t) => t.toLowerCase().includes(w)));
  const dms: InboxDm[] = [];
  const channels = new Map<number, InboxChannel>();
  for (const c of conversations) {
    if (c.kind === 'dm') {
      const name = context.dmName(c.userIds);
      if (hit(name)) dms.push({ key: c.key, userIds: c.userIds, name, count: c.count, newestId: c.newestId, mentioned: c.mentioned });
      continue;
    }
    if (context.topicMuted(c.streamId, c.topic)) continue;
    const name = context.channelName(c.streamId);
    if (!hit(name, c.topic)) continue;
    let channel = channels.get(c.streamId);
    if (!channel) {
      channel = { streamId: c.streamId, name, pinned: context.pinned(c.streamId), count: 0, newestId: 0, topics: [] };
      channels.set(c.streamId, channel);
    }
    channel.count += c.count;
    channel.newestId = Math.max(channel.newestId, c.newestId);
    channel.topics.push({ topic: c.topic, count: c.count, newestId: c.newestId, mentioned: c.mentioned });
  }
  // Newest first within a group; channels in the sidebar's order (pinned first, then by name).
  dms.sort((a, b) => b.newestId - a.newestId);
  for (const channel of channels.values()) channel.topics.sort((a, b) => b.newestId - a.newestId);
  const ordered = [...channels.values()].sort((a, b) => Number(b.pinned) - Number(a.pinned) || a.name.localeCompare(b.name));
  return { dms, channels: ordered };
}
