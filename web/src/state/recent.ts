/**
 * Recent conversations (Zulip's view): the newest conversations, topics and direct message
 * conversations alike, with who took part, when the last message was sent, and the unread count;
 * filters for those the reader took part in and those with unread messages. Built from the
 * messages the client holds (a page of the newest) and the registered recent direct messages.
 */
import { conversationKey, conversationOf, type Conversation } from './feed.js';
import type { Message } from './types.js';
import { dmKey } from './types.js';

export interface RecentRow {
  key: string;
  conversation: Conversation;
  newestId: number;
  /** The newest message's time (seconds), unknown for a conversation known only from register. */
  timestamp: number | undefined;
  /** Senders, the most recent first. */
  senders: number[];
  participated: boolean;
  unread: number;
}

export interface RecentFilter {
  participated?: boolean;
  unread?: boolean;
  /** Muted topics are left out unless this is set (Zulip's "Include muted"). */
  includeMuted?: boolean;
}

export interface RecentContext {
  selfId: number;
  unreadCount(conversation: Conversation): number;
  topicMuted(streamId: number, topic: string): boolean;
}

export function recentConversations(
  messages: Iterable<Message>,
  registered: readonly { user_ids: number[]; max_message_id: number }[],
  context: RecentContext,
  filter: RecentFilter = {},
  limit = 200,
): RecentRow[] {
  const rows = new Map<string, RecentRow>();
  // Newest first, so that each conversation's senders come out most recent first.
  const sorted = [...messages].filter((m) => Number.isInteger(m.id)).sort((a, b) => b.id - a.id);
  for (const m of sorted) {
    const conversation = conversationOf(m, context.selfId);
    const key = conversationKey(conversation);
    let row = rows.get(key);
    if (!row) {
      row = { key, conversation, newestId: m.id, timestamp: m.timestamp, senders: [], participated: false, unread: 0 };
      rows.set(key, row);
    }
    if (!row.senders.includes(m.sender_id)) row.senders.push(m.sender_id);
    if (m.sender_id === context.selfId) row.participated = true;
  }
  for (const r of registered) {
    const userIds = r.user_ids.length ? [...r.user_ids].sort((a, b) => a - b) : [context.selfId];
    const key = `d${dmKey(userIds)}`;
    const known = rows.get(key);
    if (known && known.newestId >= r.max_message_id) continue;
    // Zulip counts a direct message conversation as one the reader took part in.
    rows.set(key, { key, conversation: { type: 'dm', userIds }, newestId: r.max_message_id, timestamp: undefined, senders: known?.senders ?? userIds, participated: true, unread: 0 });
  }
  const out: RecentRow[] = [];
  for (const row of rows.values()) {
    const c = row.conversation;
    if (c.type === 'dm') row.participated = true;
    if (c.type === 'channel' && !filter.includeMuted && context.topicMuted(c.streamId, c.topic)) continue;
    row.unread = context.unreadCount(c);
    if (filter.participated && !row.participated) continue;
    if (filter.unread && row.unread === 0) continue;
    out.push(row);
  }
  return out.sort((a, b) => b.newestId - a.newestId).slice(0, limit);
}
