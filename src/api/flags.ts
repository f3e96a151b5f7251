/**
 * Personal message flags: `POST /messages/flags`, `POST /messages/flags/narrow`, and marking
 * everything, a channel or a topic as read. One function changes flags and names the event.
 */
import { VisibilityPolicy } from '../domain/topic-visibility.js';
import { badRequest } from '../domain/errors.js';
import { API_FLAGS, EDITABLE_FLAGS, Flag, HISTORICAL_FLAGS, MENTION_BITS, type FlagName, type MessageRecord } from '../domain/messages.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../domain/realm.js';
import { normalizeTopic, topicKey } from '../domain/topics.js';
import type { UserRecord } from '../domain/users.js';
import { LIMITS } from '../domain/versions.js';
import type { Services } from '../services.js';
import { Transaction } from '../store/transaction.js';
import { accessChannelById } from '../queries/channel-access.js';
import { accessMessage } from '../queries/message-access.js';
import { narrowTerms } from '../queries/narrow-terms.js';
import { MessageQuery, parseAnchor } from '../queries/message-query.js';
import * as schemas from '../schemas/index.js';
import { me, type Request } from './route.js';

export function checkFlag(flag: string): FlagName {
  if (!(API_FLAGS as readonly string[]).includes(flag)) throw badRequest(`Invalid flag: '${flag}'`);
  if (!(EDITABLE_FLAGS as readonly string[]).includes(flag)) throw badRequest(`Flag not editable: '${flag}'`);
  return flag as FlagName;
}

export function checkOp(op: string): 'add' | 'remove' {
  if (op !== 'add' && op !== 'remove') throw badRequest(`Invalid message flag operation: '${op}'`);
  return op;
}

export interface FlagChange {
  changed: number[];
  ignoredChannels: number[];
}

/** What a client needs to put a message back among its unread counts. */
function unreadDetails(services: Services, user: UserRecord, record: MessageRecord, flags: number): Record<string, unknown> {
  if (record.type === 'private') {
    return { type: 'private', user_ids: record.dmUserIds!.filter((id) => id !== user.id) };
  }
  const policy = services.subscriptions.topicPolicy(user.id, record.channelId!, topicKey(record.topic!));
  const channelMuted = services.subscriptions.subscription(user.id, record.channelId!)?.isMuted ?? false;
  const details: Record<string, unknown> = {
    type: 'stream',
    stream_id: record.channelId,
    topic: record.topic,
    unmuted_stream_msg: !channelMuted || policy === VisibilityPolicy.UNMUTED || policy === VisibilityPolicy.FOLLOWED,
  };
  if (flags & MENTION_BITS) details.mentioned = true;
  return details;
}

/**
 * Adds or removes `flag` on the messages, skipping those already so. Marking unread skips
 * channels the user is not subscribed to; starring a message the user never received (public
 * history) creates a historical record of it, as Zulip does.
 */
export function changeFlags(services: Services, tx: Transaction, user: UserRecord, ids: readonly number[], op: 'add' | 'remove', flag: FlagName, strict: boolean): FlagChange {
  const { messages } = services;
  const bit = Flag[flag];
  const changed: number[] = [];
  const ignored = new Set<number>();
  const details: Record<string, Record<string, unknown>> = {};
  for (const id of ids) {
    const record = messages.get(id);
    let before = messages.flags(user.id, id);
    if (op === 'remove' && flag === 'read' && record?.type === 'stream' && !services.subscriptions.isSubscribed(user.id, record.channelId!)) {
      // Naming the channel confirms the message and its channel: only for a message the user may read.
      if (accessMessage(services, user, record) === undefined) {
        if (strict) throw badRequest('Invalid message(s)');
        continue;
      }
      ignored.add(record.channelId!);
      continue;
    }
    const current = before ?? HISTORICAL_FLAGS;
    const after = op === 'add' ? current | bit : current & ~bit;
    if (after === current) continue;
    if (before === undefined) {
      // Changing what a never-received message looks like needs a (historical) record of it.
      if (!record || accessMessage(services, user, record) === undefined) {
        if (strict) throw badRequest('Invalid message(s)');
        continue;
      }
      messages.save({ ...record, userIds: [...record.userIds, user.id] }, tx);
      before = undefined;
    }
    messages.setFlags(user.id, id, before, after, tx);
    changed.push(id);
    if (op === 'remove' && flag === 'read' && record) details[id] = unreadDetails(services, user, record, after);
  }
  const event: Record<string, unknown> = { type: 'update_message_flags', op, operation: op, flag, messages: changed, all: false };
  if (op === 'remove' && flag === 'read') event.message_details = details;
  tx.emit(event, [user.id]);
  return { changed, ignoredChannels: [...ignored].sort((a, b) => a - b) };
}

/** Marks read every unread message of the user that `keep` accepts. */
async function markRead(services: Services, user: UserRecord, keep: (record: MessageRecord) => boolean): Promise<number[]> {
  const ids: number[] = [];
  for await (const id of services.messages.ids({ of: 'unread', userId: user.id }, { reverse: false })) {
    const record = services.messages.get(id);
    if (record && keep(record)) ids.push(id);
  }
  const result = await services.write((tx) => changeFlags(services, tx, user, ids, 'add', 'read', false));
  return result.changed;
}

/** POST /messages/flags */
export async function updateMessageFlags(services: Services, request: Request<typeof schemas.updateMessageFlags>) {
  const user = me(request);
  const flag = checkFlag(request.params.flag);
  const op = checkOp(request.params.op);
  const result = await services.write((tx) => changeFlags(services, tx, user, request.params.messages, op, flag, true));
  return { messages: request.params.messages, ignored_because_not_subscribed_channels: result.ignoredChannels };
}

/** POST /messages/flags/narrow */
export async function updateMessageFlagsForNarrow(services: Services, request: Request<typeof schemas.updateMessageFlagsForNarrow>) {
  const user = me(request);
  const p = request.params;
  const flag = checkFlag(p.flag);
  const op = checkOp(p.op);
  if (p.num_before > 0 && p.num_after > 0 && !p.include_anchor) throw badRequest('The anchor can only be excluded at an end of the range');
  // The range is clamped rather than refused, to bound the size of one transaction.
  const max = LIMITS.maxMessagesPerFetch;
  const numBefore = Math.min(p.num_before, Math.max(max - p.num_after, max / 2));
  const numAfter = Math.min(p.num_after, max - numBefore);
  const query = new MessageQuery(services, user, narrowTerms(services, user, p.narrow));
  const range = await query.range({ anchor: parseAnchor(p.anchor, false), numBefore, numAfter, includeAnchor: p.include_anchor });
  const ids = range.messages.map((m) => m.record.id);
  const result = await services.write((tx) => changeFlags(services, tx, user, ids, op, flag, false));
  const response: Record<string, unknown> = {
    processed_count: ids.length,
    updated_count: result.changed.length,
    first_processed_id: ids.length ? ids[0] : null,
    last_processed_id: ids.length ? ids[ids.length - 1] : null,
    found_oldest: range.foundOldest,
    found_newest: range.foundNewest,
  };
  if (op === 'remove' && flag === 'read') response.ignored_because_not_subscribed_channels = result.ignoredChannels;
  return response;
}

/** POST /mark_all_as_read */
export async function markAllAsRead(services: Services, request: Request<typeof schemas.markAllAsRead>) {
  const user = me(request);
  const ids: number[] = [];
  for await (const id of services.messages.ids({ of: 'unread', userId: user.id }, { reverse: false })) ids.push(id);
  await services.write((tx) => {
    changeFlags(services, tx, user, ids, 'add', 'read', false);
    // Zulip tells clients "everything" rather than listing the ids.
    const event = tx.events.pop();
    if (event && typeof event.event !== 'function') tx.emit({ ...event.event, messages: [], all: true }, [user.id]);
  });
  return { complete: true };
}

/** POST /mark_stream_as_read */
export async function markStreamAsRead(services: Services, request: Request<typeof schemas.markStreamAsRead>) {
  const user = me(request);
  const channel = accessChannelById(services, user, request.params.stream_id);
  await markRead(services, user, (record) => record.type === 'stream' && record.channelId === channel.id);
  return {};
}

/** POST /mark_topic_as_read */
export async function markTopicAsRead(services: Services, request: Request<typeof schemas.markTopicAsRead>) {
  const user = me(request);
  const channel = accessChannelById(services, user, request.params.stream_id);
  const raw = request.params.topic_name as string;
  const topic = normalizeTopic(raw, { maxLength: Number.MAX_SAFE_INTEGER, emptyTopicDisplayName: EMPTY_TOPIC_DISPLAY_NAME });
  if (topic !== '' && !services.messages.topic(channel.id, topicKey(topic))) throw badRequest(`No such topic '${raw}'`);
  const key = topicKey(topic);
  await markRead(services, user, (record) => record.type === 'stream' && record.channelId === channel.id && (topic === '' || topicKey(record.topic!) === key));
  return {};
}
