/** The `unread_msgs` state of POST /register: a user's unread messages grouped by conversation. */
import { topicMuted } from '../domain/topic-visibility.js';
import { Flag, MENTION_BITS, type MessageRecord } from '../domain/messages.js';
import { messageFlags, unreadCandidatesRange } from './message-state.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../domain/realm.js';
import { topicKey } from '../domain/topics.js';
import type { Services } from '../services.js';

/** Zulip reads at most this many unread messages, the newest ones. */
export const MAX_UNREAD_MESSAGES = 50000;

export async function unreadMessages(services: Services, userId: number, allowEmptyTopicName: boolean) {
  const { messages, subscriptions } = services;
  // The newest unread first, until the cap; each candidate's flags decide (read exceptions drop out).
  const found: { record: MessageRecord; flags: number }[] = [];
  for await (const id of messages.ids(unreadCandidatesRange(services, userId), { reverse: true })) {
    const record = messages.get(id);
    const flags = record ? messageFlags(services, userId, record) : undefined;
    if (!record || flags === undefined || flags & Flag.read) continue;
    found.push({ record, flags });
    if (found.length >= MAX_UNREAD_MESSAGES) break;
  }
  found.reverse();
  const pms = new Map<number, number[]>();
  const huddles = new Map<string, number[]>();
  const streams = new Map<string, { stream_id: number; key: string; topic: string; unread_message_ids: number[] }>();
  const mentions: number[] = [];
  let count = 0;
  for (const { record, flags } of found) {
    const id = record.id;
    if (record.type === 'private') {
      const users = record.dmUserIds!;
      if (users.length <= 2) {
        const other = users.find((u) => u !== userId) ?? userId;
        let list = pms.get(other);
        if (!list) pms.set(other, (list = []));
        list.push(id);
      } else {
        const key = users.join(',');
        let list = huddles.get(key);
        if (!list) huddles.set(key, (list = []));
        list.push(id);
      }
      count++;
      if (flags & MENTION_BITS) mentions.push(id);
      continue;
    }
    const channelId = record.channelId!;
    if (!subscriptions.isSubscribed(userId, channelId)) continue;
    const key = `${channelId}:${topicKey(record.topic!)}`;
    let entry = streams.get(key);
    if (!entry) {
      const topic = record.topic === '' && !allowEmptyTopicName ? EMPTY_TOPIC_DISPLAY_NAME : record.topic!;
      entry = { stream_id: channelId, key: topicKey(record.topic!), topic, unread_message_ids: [] };
      streams.set(key, entry);
    }
    entry.unread_message_ids.push(id);
    const policy = subscriptions.topicPolicy(userId, channelId, topicKey(record.topic!));
    const channelMuted = subscriptions.subscription(userId, channelId)?.isMuted ?? false;
    const muted = topicMuted(policy, channelMuted);
    if (!muted) count++;
    if (flags & Flag.mentioned || flags & Flag.group_mentioned) mentions.push(id);
    else if (flags & (Flag.stream_wildcard_mentioned | Flag.topic_wildcard_mentioned) && !muted) mentions.push(id);
  }
  return {
    pms: [...pms.entries()].sort((a, b) => a[0] - b[0]).map(([other, list]) => ({ other_user_id: other, sender_id: other, unread_message_ids: list })),
    // Zulip's order: by channel id, then by topic, lowercased.
    streams: [...streams.values()]
      .sort((a, b) => a.stream_id - b.stream_id || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .map(({ key: _, ...entry }) => entry),
    huddles: [...huddles.entries()].map(([key, list]) => ({ user_ids_string: key, unread_message_ids: list })),
    mentions,
    count,
    old_unreads_missing: found.length >= MAX_UNREAD_MESSAGES,
  };
}
