/**
 * Writing per-user message state (see "Per-user message state" in docs/architecture.md): a
 * user's flags for one message, written as a row only where the read mark does not already
 * say them; read on arrival; moving a read mark forward over what is read, so that reading in
 * order leaves no rows behind; and turning a moved message's holders into rows.
 */
import { Flag, type MessageRecord } from '../domain/messages.js';
import type { Services } from '../services.js';
import type { Transaction } from '../store/transaction.js';
import { isDelivered, markedFlags, messageFlags } from '../queries/message-state.js';
import { withFields } from '../shared/with-fields.js';

/** How many of a channel's ids above a read mark are read ahead for moving it (bounds one write). */
const AHEAD = 2000;

/**
 * Sets a user's flags for a message (`row`: their row now, if any; `after` must differ from
 * what they have). A delivered message whose flags become what the read mark says loses its
 * row (unless `keepRow`: a move in the same change needs it); any other gets one, and a row
 * that carries more than `read` is listed on the message so that deleting it finds the row.
 * Returns the record, a new one when it lists a new holder: the caller saves it.
 */
export function writeFlags(
  services: Services,
  tx: Transaction,
  userId: number,
  record: MessageRecord,
  row: number | undefined,
  after: number,
  keepRow = false,
): MessageRecord {
  const { messages } = services;
  const delivered = isDelivered(services, userId, record);
  if (delivered && !keepRow && after === markedFlags(services, userId, record)) {
    if (row !== undefined) messages.dropFlags(userId, record.id, tx);
    return record;
  }
  messages.setFlags(userId, record.id, row, after, tx);
  const listed = (after & ~Flag.read) !== 0 || !delivered;
  if (!listed || record.userIds.includes(userId)) return record;
  return withFields(record, { userIds: [...record.userIds, userId] });
}

/**
 * Sets a message read or unread for the user; false when it already was (or the user does not
 * have it). Only `read` changes, so no new holder is listed and the record stays as it is.
 */
export function setRead(services: Services, tx: Transaction, userId: number, record: MessageRecord, read: boolean): boolean {
  const flags = messageFlags(services, userId, record);
  if (flags === undefined || ((flags & Flag.read) !== 0) === read) return false;
  writeFlags(services, tx, userId, record, services.messages.row(userId, record.id), read ? flags | Flag.read : flags & ~Flag.read);
  return true;
}

/**
 * Whether a message the user reads as it arrives (its sender, or whoever caused a notice) can
 * be read by moving their read mark onto it: when the channel holds nothing above the mark.
 * `previousNewest` is the channel's newest id before this message (unknown: a promise).
 */
export function readByMoving(services: Services, userId: number, channelId: number, previousNewest: number | Promise<number>): boolean {
  return typeof previousNewest === 'number' && previousNewest <= services.readMarks.mark(userId, channelId);
}

/** The channel's ids just above the user's read mark there, read before a write that may move it. */
export async function idsAboveMark(services: Services, userId: number, channelId: number): Promise<number[]> {
  const ids: number[] = [];
  const from = services.readMarks.mark(userId, channelId);
  for await (const id of services.messages.ids({ of: 'channel', channelId }, { reverse: false, from, inclusive: false, expected: 64 })) {
    ids.push(id);
    if (ids.length >= AHEAD) break;
  }
  return ids;
}

/** Reads ahead for every channel in `channelIds` (see `moveMarks`). */
export async function idsAboveMarks(services: Services, userId: number, channelIds: Iterable<number>): Promise<Map<number, number[]>> {
  const ahead = new Map<number, number[]>();
  for (const channelId of channelIds) ahead.set(channelId, await idsAboveMark(services, userId, channelId));
  return ahead;
}

/**
 * Moves the user's read mark in each channel forward over the ids read ahead (`ahead`: the
 * channel's ids above the mark, in order) until a delivered message without a row, which the
 * mark would turn read. Rows it passes stay the truth, except those that only said `read`:
 * the mark says that now, so they go. `written`: rows this transaction wrote (reads of the
 * store do not see them yet).
 */
export function moveMarks(
  services: Services,
  tx: Transaction,
  userId: number,
  ahead: ReadonlyMap<number, readonly number[]>,
  written: ReadonlyMap<number, number> = new Map(),
): void {
  const { readMarks, messages } = services;
  for (const [channelId, ids] of ahead) {
    const mark = readMarks.mark(userId, channelId);
    let reached = mark;
    const redundant: number[] = [];
    for (const id of ids) {
      if (id <= mark) continue;
      const row = written.get(id) ?? messages.row(userId, id);
      if (row === undefined) {
        const record = messages.get(id);
        if (record && record.channelId === channelId && isDelivered(services, userId, record)) break;
      } else if (row === Flag.read) {
        const record = messages.get(id);
        if (record && isDelivered(services, userId, record)) redundant.push(id);
      }
      reached = id;
    }
    if (reached === mark) continue;
    readMarks.setMark(userId, channelId, reached, tx);
    for (const id of redundant) messages.dropFlags(userId, id, tx);
  }
}

/**
 * Everyone who has a channel message, with their flags: rows, and the receivers whose
 * intervals hold it.
 */
export function holdersOf(services: Services, record: MessageRecord): Map<number, number> {
  const holders = new Map<number, number>();
  const consider = (userId: number) => {
    if (holders.has(userId)) return;
    const flags = messageFlags(services, userId, record);
    if (flags !== undefined) holders.set(userId, flags);
  };
  for (const userId of record.userIds) consider(userId);
  if (record.type === 'stream') for (const userId of services.subscriptions.receiversOf(record.channelId!)) consider(userId);
  return holders;
}

/**
 * Turns a channel message that moves to another channel into an explicit one: every holder
 * without a row gets one with the flags the read mark gave them, because reception in the old
 * channel no longer says who has it. Returns the record to save (its `userIds` are the
 * holders) and the holders' flags.
 */
export function makeExplicit(services: Services, tx: Transaction, record: MessageRecord): { record: MessageRecord; flags: Map<number, number> } {
  const { messages, readMarks } = services;
  const holders = holdersOf(services, record);
  if (record.explicit || record.id < readMarks.explicitBelow) return { record, flags: holders };
  for (const [userId, flags] of holders) {
    if (messages.row(userId, record.id) === undefined) messages.setFlags(userId, record.id, undefined, flags, tx);
  }
  return { record: withFields(record, { explicit: true, userIds: [...holders.keys()] }), flags: holders };
}
