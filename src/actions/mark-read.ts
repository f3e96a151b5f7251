/**
 * Marking everything, a channel or a topic read. With read marks everything and a channel cost
 * the user's unread rows, not the messages marked (see "Per-user message state" in
 * docs/architecture.md); the event of a channel or a topic lists the ids, as Zulip's does.
 */
import { removeReadPushes } from './notification-removal.js';
import { badRequest } from '../domain/errors.js';
import { Flag, type MessageRecord } from '../domain/messages.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../domain/realm.js';
import { normalizeTopic, topicKey } from '../domain/topics.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import type { MessageRange } from '../store/messages.js';
import type { Transaction } from '../store/transaction.js';
import { accessChannelById } from '../queries/channel-access.js';
import { isDelivered, markedFlags } from '../queries/message-state.js';
import { setRead } from './read-state.js';

/**
 * `POST /mark_all_as_read`: every read mark moves to the newest message id and the unread rows
 * are marked read. Zulip tells clients "everything" rather than listing the ids.
 */
export async function markAllAsRead(services: Services, user: UserRecord): Promise<void> {
  const unreadRows = await idsOf(services, { of: 'unread', userId: user.id });
  await services.write((tx) => {
    // Every message written so far has an id below the next one: all of them are read now.
    const newest = services.counters.upcomingServerId('message') - 1;
    for (const { channelId } of services.subscriptions.receptionsOf(user.id)) {
      if (services.readMarks.mark(user.id, channelId) < newest) services.readMarks.setMark(user.id, channelId, newest, tx);
    }
    markRowsRead(services, tx, user, unreadRows, () => true);
    tx.emit({ type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [], all: true }, [user.id]);
    removeReadPushes(services, tx, user.id, 'all');
  });
}

/** `POST /mark_stream_as_read`. */
export async function markChannelAsRead(services: Services, user: UserRecord, channelId: number): Promise<void> {
  const channel = accessChannelById(services, user, channelId);
  await markConversationRead(services, user, channel.id, undefined);
}

/** `POST /mark_topic_as_read`: the empty topic name marks the whole channel, as Zulip does. */
export async function markTopicAsRead(services: Services, user: UserRecord, channelId: number, rawTopic: string): Promise<void> {
  const channel = accessChannelById(services, user, channelId);
  const topic = normalizeTopic(rawTopic, { maxLength: Number.MAX_SAFE_INTEGER, emptyTopicDisplayName: EMPTY_TOPIC_DISPLAY_NAME });
  if (topic !== '' && !services.messages.topic(channel.id, topicKey(topic))) throw badRequest(`No such topic '${rawTopic}'`);
  await markConversationRead(services, user, channel.id, topic === '' ? undefined : topic);
}

/**
 * Marks read the user's unread messages of a channel, or of one topic in it: the channel's (or
 * the topic's) read mark moves onto the newest message listed, unread rows are marked read, and
 * rows that only said `read` below the new mark go. The event lists the ids, as Zulip's does;
 * finding them is the only part that walks the messages marked, and it writes nothing per message.
 */
async function markConversationRead(services: Services, user: UserRecord, channelId: number, topic: string | undefined): Promise<void> {
  const { messages, readMarks } = services;
  const key = topic === undefined ? undefined : topicKey(topic);
  const inConversation = (record: MessageRecord) =>
    record.type === 'stream' && record.channelId === channelId && (key === undefined || topicKey(record.topic!) === key);
  const range: MessageRange = key === undefined ? { of: 'channel', channelId } : { of: 'topic', channelId, topicKey: key };
  const markOf = () => Math.max(readMarks.mark(user.id, channelId), key === undefined ? 0 : readMarks.topicMark(user.id, channelId, key));
  const above = await idsOf(services, range, markOf());
  const unreadRows = await idsOf(services, { of: 'unread', userId: user.id });
  await services.write((tx) => {
    const marked = markRowsRead(services, tx, user, unreadRows, inConversation);
    const from = markOf();
    let reached = from;
    const readRows: number[] = [];
    for (const id of above) {
      const record = messages.get(id);
      if (!record || !inConversation(record) || id <= from || !isDelivered(services, user.id, record)) continue;
      reached = Math.max(reached, id);
      const row = messages.row(user.id, id);
      if (row === undefined && !(markedFlags(services, user.id, record) & Flag.read)) marked.push(id);
      else if (row === Flag.read) readRows.push(id);
    }
    if (key === undefined) readMarks.setMark(user.id, channelId, Math.max(reached, readMarks.mark(user.id, channelId)), tx);
    else readMarks.setTopicMark(user.id, channelId, key, Math.max(reached, readMarks.topicMark(user.id, channelId, key)), tx);
    // Rows that only said `read` below the new mark say what it says now.
    for (const id of readRows) messages.dropFlags(user.id, id, tx);
    const ids = [...new Set(marked)].sort((a, b) => a - b);
    tx.emit({ type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: ids, all: false }, [user.id]);
    removeReadPushes(services, tx, user.id, ids);
  });
}

/** Marks read the user's unread rows that `keep` accepts; returns their ids. */
function markRowsRead(services: Services, tx: Transaction, user: UserRecord, ids: readonly number[], keep: (record: MessageRecord) => boolean): number[] {
  const marked: number[] = [];
  for (const id of ids) {
    const record = services.messages.get(id);
    if (record && keep(record) && setRead(services, tx, user.id, record, true)) marked.push(id);
  }
  return marked;
}

/** The ids of one of the store's ranges above `above`, oldest first. */
async function idsOf(services: Services, range: MessageRange, above?: number): Promise<number[]> {
  const ids: number[] = [];
  for await (const id of services.messages.ids(range, { reverse: false, from: above, inclusive: false })) ids.push(id);
  return ids;
}

