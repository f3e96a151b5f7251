/** A user's message flags: adding and removing one flag on messages or over a narrow, with the `update_message_flags` event (marking everything, a channel or a topic read: mark-read.ts). */
import { removeReadPushes } from './notification-removal.js';
import { mutedByChannel } from '../domain/topic-visibility.js';
import { badRequest } from '../domain/errors.js';
import { API_FLAGS, EDITABLE_FLAGS, Flag, HISTORICAL_FLAGS, MENTION_BITS, type FlagName, type MessageRecord } from '../domain/messages.js';
import { topicKey } from '../domain/topics.js';
import type { UserRecord } from '../domain/users.js';
import { LIMITS } from '../domain/versions.js';
import type { Services } from '../services.js';
import type { Transaction } from '../store/transaction.js';
import { accessMessage } from '../queries/message-access.js';
import { narrowTerms } from '../queries/narrow-terms.js';
import { MessageQuery, parseAnchor } from '../queries/message-query.js';
import { isDelivered, messageFlags } from '../queries/message-state.js';
import { idsAboveMarks, moveMarks, writeFlags } from './read-state.js';

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
    unmuted_stream_msg: !mutedByChannel(policy, channelMuted),
  };
  if (flags & MENTION_BITS) details.mentioned = true;
  return details;
}

/**
 * Adds or removes `flag` on the messages, skipping those already so. Marking unread skips
 * channels the user is not subscribed to; starring a message the user never received (public
 * history) creates a historical record of it, as Zulip does.
 */
/**
 * Adds or removes `flag` on the messages, skipping those already so. Marking unread skips
 * channels the user is not subscribed to; starring a message the user never received (public
 * history) creates a historical record of it, as Zulip does. Each message changes where its
 * state lives: the read marks for `read` on a delivered channel message, its row otherwise.
 * After marking read, the read marks move forward over what is now read (`ahead`: the ids
 * above each mark, read beforehand by `idsAboveMarks`).
 */
export function changeFlags(
  services: Services,
  tx: Transaction,
  user: UserRecord,
  ids: readonly number[],
  op: 'add' | 'remove',
  flag: FlagName,
  strict: boolean,
  ahead: ReadonlyMap<number, readonly number[]> = new Map(),
): FlagChange {
  const { messages } = services;
  const bit = Flag[flag];
  const changed: number[] = [];
  const ignored = new Set<number>();
  const details: Record<string, Record<string, unknown>> = {};
  const written = new Map<number, number>();
  for (const id of ids) {
    let record = messages.get(id);
    const before = record ? messageFlags(services, user.id, record) : undefined;
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
    if (!record || (before === undefined && accessMessage(services, user, record) === undefined)) {
      if (strict) throw badRequest('Invalid message(s)');
      continue;
    }
    // A delivered message's flags become a row only where the read mark does not say them;
    // a message one never received gets a (historical) row.
    const updated = writeFlags(services, tx, user.id, record, messages.row(user.id, id), after);
    if (updated !== record) messages.save((record = updated), tx);
    written.set(id, after);
    changed.push(id);
    if (op === 'remove' && flag === 'read') details[id] = unreadDetails(services, user, record, after);
  }
  if (op === 'add' && flag === 'read') moveMarks(services, tx, user.id, ahead, written);
  if (op === 'add' && flag === 'read') removeReadPushes(services, tx, user.id, changed);
  const event: Record<string, unknown> = { type: 'update_message_flags', op, operation: op, flag, messages: changed, all: false };
  if (op === 'remove' && flag === 'read') event.message_details = details;
  tx.emit(event, [user.id]);
  return { changed, ignoredChannels: [...ignored].sort((a, b) => a - b) };
}

/** When marking read, the ids above the user's marks in the channels of these messages (see `changeFlags`). */
export function readAhead(services: Services, user: UserRecord, ids: readonly number[], op: string, flag: string): Promise<Map<number, number[]>> {
  if (op !== 'add' || flag !== 'read') return Promise.resolve(new Map());
  const channels = new Set<number>();
  for (const id of ids) {
    const record = services.messages.get(id);
    if (record && isDelivered(services, user.id, record)) channels.add(record.channelId!);
  }
  return idsAboveMarks(services, user.id, channels);
}

/** `POST /messages/flags`: every id must be one the user may see. */
export async function updateFlags(services: Services, user: UserRecord, ids: readonly number[], op: string, flagName: string): Promise<FlagChange> {
  const flag = checkFlag(flagName);
  const operation = checkOp(op);
  const ahead = await readAhead(services, user, ids, operation, flag);
  return services.write((tx) => changeFlags(services, tx, user, ids, operation, flag, true, ahead));
}

export interface NarrowFlagRequest {
  narrow: unknown;
  anchor: string | undefined;
  numBefore: number;
  numAfter: number;
  includeAnchor: boolean;
  op: string;
  flag: string;
}

/** `POST /messages/flags/narrow`: a range of a narrow around an anchor, clamped to bound one write. */
export async function updateFlagsInNarrow(services: Services, user: UserRecord, request: NarrowFlagRequest) {
  const flag = checkFlag(request.flag);
  const op = checkOp(request.op);
  if (request.numBefore > 0 && request.numAfter > 0 && !request.includeAnchor) throw badRequest('The anchor can only be excluded at an end of the range');
  // The range is clamped rather than refused, to bound the size of one transaction.
  const max = LIMITS.maxMessagesPerFetch;
  const numBefore = Math.min(request.numBefore, Math.max(max - request.numAfter, max / 2));
  const numAfter = Math.min(request.numAfter, max - numBefore);
  const query = new MessageQuery(services, user, narrowTerms(services, user, request.narrow));
  const range = await query.range({ anchor: parseAnchor(request.anchor, false), numBefore, numAfter, includeAnchor: request.includeAnchor });
  const ids = range.messages.map((m) => m.record.id);
  const ahead = await readAhead(services, user, ids, op, flag);
  const result = await services.write((tx) => changeFlags(services, tx, user, ids, op, flag, false, ahead));
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

