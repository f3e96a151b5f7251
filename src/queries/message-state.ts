/**
 * A user's state of a message, read from where it lives (see "Per-user message state" in
 * docs/architecture.md): the user's row when there is one; otherwise, for a channel message
 * delivered by a reception interval, read exactly when at or below the user's read mark. Also
 * the index ranges that list a user's messages and unread messages.
 */
import { Flag, type MessageRecord } from '../domain/messages.js';
import { holds, isOpen, spans, type Intervals } from '../domain/reception.js';
import { rowReader } from '../store/message-scan.js';
import type { MessageRange } from '../store/messages.js';
import { topicKey } from '../domain/topics.js';
import type { Services } from '../services.js';

/** Was this channel message delivered to the user by a reception interval (no row needed)? */
export function isDelivered(services: Services, userId: number, record: MessageRecord): boolean {
  if (record.type !== 'stream' || record.explicit || record.id < services.readMarks.explicitBelow) return false;
  return holds(services.subscriptions.received(userId, record.channelId!), record.id);
}

/** The flags of a delivered message without a row: read exactly when at or below the user's read mark in its channel or its topic. */
export function markedFlags(services: Services, userId: number, record: MessageRecord): number {
  const { readMarks } = services;
  const channelId = record.channelId!;
  if (record.id <= readMarks.mark(userId, channelId)) return Flag.read;
  return record.id <= readMarks.topicMark(userId, channelId, topicKey(record.topic!)) ? Flag.read : 0;
}

/** The user's flags for a message, or undefined when the user does not have it (no row, not delivered). */
export function messageFlags(services: Services, userId: number, record: MessageRecord): number | undefined {
  const row = services.messages.row(userId, record.id);
  if (row !== undefined) return row;
  return isDelivered(services, userId, record) ? markedFlags(services, userId, record) : undefined;
}

/**
 * messageFlags for many messages of one user: the user's rows looked up once, and the read marks
 * and reception intervals once per channel and topic rather than per message (for one read: a
 * mark that moves afterwards is not seen).
 */
export function flagReader(services: Services, userId: number): (record: MessageRecord) => number | undefined {
  const row = rowReader(services.messages, userId);
  const { readMarks, subscriptions } = services;
  const explicitBelow = readMarks.explicitBelow;
  const channelMarks = new Map<number, number>();
  /** Per channel, its topics' marks; null: the user has none there. */
  const topicMarks = new Map<number, Map<string, number> | null>();
  const intervals = new Map<number, Intervals>();
  return (record) => {
    const own = row(record.id);
    if (own !== undefined) return own;
    // isDelivered and markedFlags, with their lookups kept.
    if (record.type !== 'stream' || record.explicit || record.id < explicitBelow) return undefined;
    const channelId = record.channelId!;
    let received = intervals.get(channelId);
    if (received === undefined) intervals.set(channelId, (received = subscriptions.received(userId, channelId)));
    if (!holds(received, record.id)) return undefined;
    let mark = channelMarks.get(channelId);
    if (mark === undefined) channelMarks.set(channelId, (mark = readMarks.mark(userId, channelId)));
    if (record.id <= mark) return Flag.read;
    let marks = topicMarks.get(channelId);
    // No topic marks in the channel (the usual case): unread above the channel's mark.
    if (marks === undefined) topicMarks.set(channelId, (marks = readMarks.hasTopicMarks(userId, channelId) ? new Map() : null));
    if (marks === null) return 0;
    let topicMark = marks.get(record.topic!);
    if (topicMark === undefined) marks.set(record.topic!, (topicMark = readMarks.topicMark(userId, channelId, topicKey(record.topic!))));
    return record.id <= topicMark ? Flag.read : 0;
  };
}

/** Channel spans of delivered ids above `above`, as ranges. */
function deliveredSpans(channelId: number, intervals: Intervals, above: number): MessageRange[] {
  return spans(intervals, above).map(([from, to]) => ({ of: 'channel-span', channelId, from, to }));
}

/** Every message the user has: their rows, and each channel's messages inside their intervals. */
export function userMessagesRange(services: Services, userId: number): MessageRange {
  const before = services.readMarks.explicitBelow - 1;
  const ranges: MessageRange[] = [{ of: 'rows', userId }];
  for (const { channelId, intervals } of services.subscriptions.receptionsOf(userId)) ranges.push(...deliveredSpans(channelId, intervals, before));
  return { of: 'union', ranges };
}

/**
 * A superset of the user's unread messages, in id order: their unread rows, and each channel's
 * delivered messages above the user's read mark there. Callers check each candidate's flags
 * (a row that says read drops out of the second part).
 */
export function unreadCandidatesRange(services: Services, userId: number): MessageRange {
  const before = services.readMarks.explicitBelow - 1;
  const ranges: MessageRange[] = [{ of: 'unread', userId }];
  for (const { channelId, intervals } of services.subscriptions.receptionsOf(userId)) {
    ranges.push(...deliveredSpans(channelId, intervals, Math.max(before, services.readMarks.mark(userId, channelId))));
  }
  return { of: 'union', ranges };
}

/**
 * The newest message id the user has, or -1 (`max_message_id`; GET /users/me reads it on every
 * call): the newest row, and per channel the channel's newest message while the user receives
 * it, or the newest inside the closed intervals.
 */
export function newestMessageId(services: Services, userId: number): number | Promise<number> {
  const { messages } = services;
  // Written for GET /users/me: no allocation when everything is known, as it usually is (not
  // even a closure: the parts are taken inline).
  let newest = -1;
  let reading: Promise<number>[] | undefined;
  const own = messages.newestRowId(userId);
  if (typeof own === 'number') newest = own;
  else (reading ??= []).push(own);
  for (const { channelId, intervals } of services.subscriptions.receptionsOf(userId)) {
    const openFrom = isOpen(intervals) ? intervals[intervals.length - 1]! : Infinity;
    const inChannel = messages.newestInChannel(channelId);
    const part = typeof inChannel === 'number'
      ? (inChannel >= openFrom ? inChannel : newestInClosed(services, userId, channelId, intervals))
      : inChannel.then((id) => (id >= openFrom ? id : newestInClosed(services, userId, channelId, intervals)));
    if (typeof part === 'number') newest = Math.max(newest, part);
    else (reading ??= []).push(part);
  }
  if (!reading) return newest;
  return Promise.all(reading).then((values) => Math.max(newest, ...values));
}

/**
 * The newest message of a channel the user has inside the closed intervals (a move may have put
 * others there); synchronous unless it must be read from the store (GET /users/me stays synchronous).
 */
function newestInClosed(services: Services, userId: number, channelId: number, intervals: Intervals): number | Promise<number> {
  if (intervals.length === 1 && isOpen(intervals)) return -1;
  return services.messages.cachedNewestIn(channelId, intervals) ?? readNewestInClosed(services, userId, channelId, intervals);
}

async function readNewestInClosed(services: Services, userId: number, channelId: number, intervals: Intervals): Promise<number> {
  const generation = services.messages.generationOf(channelId);
  const closed = isOpen(intervals) ? intervals.slice(0, -1) : intervals;
  const range: MessageRange = { of: 'union', ranges: deliveredSpans(channelId, closed, services.readMarks.explicitBelow - 1) };
  let found = -1;
  for await (const id of services.messages.ids(range, { reverse: true, expected: 1 })) {
    const record = services.messages.get(id);
    if (record && isDelivered(services, userId, record)) {
      found = id;
      break;
    }
  }
  services.messages.cacheNewestIn(channelId, intervals, found, generation);
  return found;
}
