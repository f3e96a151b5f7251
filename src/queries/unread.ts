/** The `unread_msgs` state of POST /register: a user's unread messages grouped by conversation. */
import { topicMuted } from '../domain/topic-visibility.js';
import { Flag, MENTION_BITS, type MessageRecord } from '../domain/messages.js';
import { flagReader, unreadCandidatesRange } from './message-state.js';
import { idList, recordReader } from '../store/message-scan.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../domain/realm.js';
import { topicKey } from '../domain/topics.js';
import type { Services } from '../services.js';

/** Zulip reads at most this many unread messages, the newest ones. */
export const MAX_UNREAD_MESSAGES = 50000;

/**
 * The candidates of unreadCandidatesRange, newest first, each once: every part read into an
 * array on its own and merged once, rather than through one generator step per id and part.
 */
async function candidateIds(services: Services, userId: number): Promise<number[]> {
  const range = unreadCandidatesRange(services, userId);
  const parts = range.of === 'union' ? range.ranges : [range];
  const lists = await Promise.all(parts.map(async (part) => {
    if (part.of !== 'union') return idList(services.messages, part, true);
    const ids: number[] = [];
    for await (const id of services.messages.ids(part, { reverse: true })) ids.push(id);
    return ids;
  }));
  if (lists.length === 1) return lists[0]!.filter((id, i, all) => i === 0 || id !== all[i - 1]);
  return newestFirstOnce(lists);
}

/** The ids of every list, newest first, each once: one numeric sort of a typed array, no comparator calls. */
function newestFirstOnce(lists: readonly number[][]): number[] {
  let total = 0;
  for (const list of lists) total += list.length;
  const sorted = new Float64Array(total);
  let at = 0;
  for (const list of lists) {
    sorted.set(list, at);
    at += list.length;
  }
  sorted.sort();
  const ids: number[] = [];
  for (let i = total - 1; i >= 0; i--) if (i === total - 1 || sorted[i] !== sorted[i + 1]) ids.push(sorted[i]!);
  return ids;
}

/** `map`'s inner map under `key`, made when missing (per channel, then per topic: no key string per message). */
function inner<K, V>(map: Map<number, Map<K, V>>, key: number): Map<K, V> {
  let found = map.get(key);
  if (found === undefined) map.set(key, (found = new Map()));
  return found;
}

export async function unreadMessages(services: Services, userId: number, allowEmptyTopicName: boolean) {
  const { messages, subscriptions } = services;
  // The newest unread first, until the cap; each candidate's flags decide (read exceptions drop out).
  const found: { record: MessageRecord; flags: number }[] = [];
  const flagsOf = flagReader(services, userId);
  const recordOf = recordReader(messages);
  for (const id of await candidateIds(services, userId)) {
    const record = recordOf(id);
    const flags = record ? flagsOf(record) : undefined;
    if (!record || flags === undefined || flags & Flag.read) continue;
    found.push({ record, flags });
    if (found.length >= MAX_UNREAD_MESSAGES) break;
  }
  found.reverse();
  const pms = new Map<number, number[]>();
  const huddles = new Map<string, number[]>();
  type StreamEntry = { stream_id: number; key: string; topic: string; unread_message_ids: number[]; muted: boolean };
  // By channel, then topic; `entries` keeps the order they were met in (the first met names a topic).
  const streams = new Map<number, Map<string, StreamEntry>>();
  const entries: StreamEntry[] = [];
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
    // One lookup per topic, not per message: a user's unread messages crowd into few topics.
    const topics = inner(streams, channelId);
    let entry = topics.get(record.topic!);
    if (!entry) {
      if (!subscriptions.isSubscribed(userId, channelId)) continue;
      const topic = record.topic === '' && !allowEmptyTopicName ? EMPTY_TOPIC_DISPLAY_NAME : record.topic!;
      const folded = topicKey(record.topic!);
      const channelMuted = subscriptions.subscription(userId, channelId)?.isMuted ?? false;
      const muted = topicMuted(subscriptions.topicPolicy(userId, channelId, folded), channelMuted);
      entry = { stream_id: channelId, key: folded, topic, unread_message_ids: [], muted };
      topics.set(record.topic!, entry);
      entries.push(entry);
    }
    entry.unread_message_ids.push(id);
    const muted = entry.muted;
    if (!muted) count++;
    if (flags & Flag.mentioned || flags & Flag.group_mentioned) mentions.push(id);
    else if (flags & (Flag.stream_wildcard_mentioned | Flag.topic_wildcard_mentioned) && !muted) mentions.push(id);
  }
  // Topics that differ only in case are one conversation (Zulip lowercases them).
  const byTopic = new Map<string, { stream_id: number; key: string; topic: string; unread_message_ids: number[] }>();
  for (const { muted: _, ...entry } of entries) {
    const merged = byTopic.get(`${entry.stream_id}:${entry.key}`);
    if (merged === undefined) byTopic.set(`${entry.stream_id}:${entry.key}`, entry);
    else merged.unread_message_ids = [...merged.unread_message_ids, ...entry.unread_message_ids].sort((a, b) => a - b);
  }
  return {
    pms: [...pms.entries()].sort((a, b) => a[0] - b[0]).map(([other, list]) => ({ other_user_id: other, sender_id: other, unread_message_ids: list })),
    // Zulip's order: by channel id, then by topic, lowercased.
    streams: [...byTopic.values()]
      .sort((a, b) => a.stream_id - b.stream_id || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .map(({ key: _, ...entry }) => entry),
    huddles: [...huddles.entries()].map(([key, list]) => ({ user_ids_string: key, unread_message_ids: list })),
    mentions,
    count,
    old_unreads_missing: found.length >= MAX_UNREAD_MESSAGES,
  };
}
