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

/** A channel's delivered messages in one span, ascending. */
interface SpanIds {
  channelId: number;
  ids: number[];
}

/**
 * The candidates of unreadCandidatesRange, each part read into an ascending array of its own:
 * `spans`, one channel's delivered messages each, and `others` (the user's unread rows), which
 * may repeat ids of the spans.
 */
async function candidateLists(services: Services, userId: number): Promise<{ spans: SpanIds[]; others: number[][]; total: number }> {
  const range = unreadCandidatesRange(services, userId);
  const parts = range.of === 'union' ? range.ranges : [range];
  const spans: SpanIds[] = [];
  const others: number[][] = [];
  let total = 0;
  await Promise.all(parts.map(async (part) => {
    let ids: number[];
    if (part.of !== 'union') ids = await idList(services.messages, part, false);
    else {
      ids = [];
      for await (const id of services.messages.ids(part, { reverse: false })) ids.push(id);
    }
    if (part.of === 'channel-span') spans.push({ channelId: part.channelId, ids });
    else others.push(ids);
    total += ids.length;
  }));
  return { spans, others, total };
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

const ascending = (a: number, b: number) => a - b;

/** Appends `id`; true when that broke the list's ascending order (it is then sorted once at the end). */
function append(list: number[], id: number): boolean {
  const outOfOrder = list.length > 0 && list[list.length - 1]! > id;
  list.push(id);
  return outOfOrder;
}

interface TopicEntry {
  stream_id: number;
  key: string;
  topic: string;
  unread_message_ids: number[];
  muted: boolean;
  /** The oldest id met: of topics differing only in case, the oldest names the conversation. */
  first: number;
}

/**
 * The unread messages grouped as Zulip does. Messages may come in any order across channels and
 * conversations; lists that were not filled in ascending order are sorted once at the end.
 */
class UnreadGroups {
  private readonly pms = new Map<number, number[]>();
  private readonly huddles = new Map<string, number[]>();
  /** By channel, then exact topic (no key string per message: a user's unread messages crowd into few topics). */
  private readonly streams = new Map<number, Map<string, TopicEntry>>();
  private readonly entries: TopicEntry[] = [];
  private readonly subscribed = new Map<number, boolean>();
  private readonly unsorted = new Set<number[]>();
  private readonly mentions: number[] = [];
  private count = 0;

  constructor(
    private readonly services: Services,
    private readonly userId: number,
    private readonly allowEmptyTopicName: boolean,
  ) {}

  add(record: MessageRecord, flags: number): void {
    if (record.type === 'private') this.addDirect(record, flags);
    else this.addChannel(record, flags);
  }

  private note(list: number[], id: number): void {
    if (append(list, id)) this.unsorted.add(list);
  }

  private addDirect(record: MessageRecord, flags: number): void {
    const users = record.dmUserIds!;
    let list: number[] | undefined;
    if (users.length <= 2) {
      const other = users.find((u) => u !== this.userId) ?? this.userId;
      list = this.pms.get(other);
      if (!list) this.pms.set(other, (list = []));
    } else {
      const key = users.join(',');
      list = this.huddles.get(key);
      if (!list) this.huddles.set(key, (list = []));
    }
    this.note(list, record.id);
    this.count++;
    if (flags & MENTION_BITS) this.note(this.mentions, record.id);
  }

  private addChannel(record: MessageRecord, flags: number): void {
    const channelId = record.channelId!;
    let topics = this.streams.get(channelId);
    if (topics === undefined) this.streams.set(channelId, (topics = new Map()));
    let entry = topics.get(record.topic!);
    if (!entry) {
      const { subscriptions } = this.services;
      let subscribed = this.subscribed.get(channelId);
      if (subscribed === undefined) this.subscribed.set(channelId, (subscribed = subscriptions.isSubscribed(this.userId, channelId)));
      if (!subscribed) return;
      const topic = record.topic === '' && !this.allowEmptyTopicName ? EMPTY_TOPIC_DISPLAY_NAME : record.topic!;
      const folded = topicKey(record.topic!);
      const channelMuted = subscriptions.subscription(this.userId, channelId)?.isMuted ?? false;
      const muted = topicMuted(subscriptions.topicPolicy(this.userId, channelId, folded), channelMuted);
      entry = { stream_id: channelId, key: folded, topic, unread_message_ids: [], muted, first: record.id };
      topics.set(record.topic!, entry);
      this.entries.push(entry);
    }
    const id = record.id;
    if (id < entry.first) entry.first = id;
    this.note(entry.unread_message_ids, id);
    const muted = entry.muted;
    if (!muted) this.count++;
    if (flags & Flag.mentioned || flags & Flag.group_mentioned) this.note(this.mentions, id);
    else if (flags & (Flag.stream_wildcard_mentioned | Flag.topic_wildcard_mentioned) && !muted) this.note(this.mentions, id);
  }

  result(oldUnreadsMissing: boolean) {
    for (const list of this.unsorted) list.sort(ascending);
    // Topics that differ only in case are one conversation (Zulip lowercases them), named by its oldest.
    const byTopic = new Map<string, TopicEntry>();
    for (const entry of this.entries) {
      const merged = byTopic.get(`${entry.stream_id}:${entry.key}`);
      if (merged === undefined) byTopic.set(`${entry.stream_id}:${entry.key}`, entry);
      else {
        if (entry.first < merged.first) {
          merged.topic = entry.topic;
          merged.first = entry.first;
        }
        merged.unread_message_ids = [...merged.unread_message_ids, ...entry.unread_message_ids].sort(ascending);
      }
    }
    return {
      pms: [...this.pms.entries()].sort((a, b) => a[0] - b[0]).map(([other, list]) => ({ other_user_id: other, sender_id: other, unread_message_ids: list })),
      // Zulip's order: by channel id, then by topic, lowercased.
      streams: [...byTopic.values()]
        .sort((a, b) => a.stream_id - b.stream_id || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
        .map(({ stream_id, topic, unread_message_ids }) => ({ stream_id, topic, unread_message_ids })),
      huddles: [...this.huddles.entries()].map(([key, list]) => ({ user_ids_string: key, unread_message_ids: list })),
      mentions: this.mentions,
      count: this.count,
      old_unreads_missing: oldUnreadsMissing,
    };
  }
}

export async function unreadMessages(services: Services, userId: number, allowEmptyTopicName: boolean) {
  const { spans, others, total } = await candidateLists(services, userId);
  const groups = new UnreadGroups(services, userId, allowEmptyTopicName);
  const flagsOf = flagReader(services, userId);
  const recordOf = recordReader(services.messages);
  /** Adds the message when the user has it unread (and, given `channelId`, it is in that channel). */
  const take = (id: number, channelId?: number): void => {
    const record = recordOf(id);
    if (!record || (channelId !== undefined && record.channelId !== channelId)) return;
    const flags = flagsOf(record);
    if (flags === undefined || flags & Flag.read) return;
    groups.add(record, flags);
  };
  if (total >= MAX_UNREAD_MESSAGES) return cappedUnread(spans, others, groups, recordOf, flagsOf);
  // Under the cap every candidate counts, so no order across parts is needed: each channel's
  // messages in order, then the other parts' ids that no channel gave (each once). A message
  // moved to another channel while the parts were read is taken only from its channel's part
  // (no id twice), as the records now say.
  const rest = others.length === 0 ? undefined : new Set(others.length === 1 ? others[0]! : others.flat());
  for (const { channelId, ids } of spans) {
    for (const id of ids) {
      if (rest !== undefined && rest.size > 0) rest.delete(id);
      take(id, channelId);
    }
  }
  if (rest !== undefined) for (const id of [...rest].sort(ascending)) take(id);
  return groups.result(false);
}

/** Over the cap: the newest unread first until MAX_UNREAD_MESSAGES, then grouped oldest first. */
function cappedUnread(spans: SpanIds[], others: number[][], groups: UnreadGroups, recordOf: (id: number) => MessageRecord | undefined, flagsOf: (record: MessageRecord) => number | undefined) {
  const records: MessageRecord[] = [];
  const flagList: number[] = [];
  for (const id of newestFirstOnce([...spans.map((span) => span.ids), ...others])) {
    const record = recordOf(id);
    const flags = record ? flagsOf(record) : undefined;
    if (!record || flags === undefined || flags & Flag.read) continue;
    records.push(record);
    flagList.push(flags);
    if (records.length >= MAX_UNREAD_MESSAGES) break;
  }
  for (let i = records.length - 1; i >= 0; i--) groups.add(records[i]!, flagList[i]!);
  return groups.result(records.length >= MAX_UNREAD_MESSAGES);
}
