/**
 * Scheduled messages and reminders as plain records, and their pure rules: the type names and
 * their aliases, the delivery time, Zulip's late cut-off, and the API's object formats.
 * Both are one record kind (as Zulip's ScheduledMessage with its delivery type): one counter,
 * one store, one scheduler.
 */
import { badRequest } from './errors.js';
import { globalTime } from './message-markup.js';

export type ScheduledKind = 'send' | 'remind';

export interface ScheduledMessageRecord {
  /** From the organization's own counter: not the id the message gets when sent. */
  id: number;
  kind: ScheduledKind;
  senderId: number;
  type: 'stream' | 'private';
  /** Channel messages: the channel id and topic (already normalized). */
  channelId?: number;
  topic?: string;
  /** Direct messages: the user ids as given (without duplicates). */
  userIds?: number[];
  /** Normalized Markdown, and its rendering when it was scheduled (for the API; delivery renders again). */
  content: string;
  renderedContent: string;
  /** Unix seconds: absolute, so that a restart delivers at the same moment. */
  deliverAt: number;
  readBySender: boolean;
  /** The client that scheduled it: the message is sent as from it. */
  client: string;
  failed: boolean;
  failureMessage?: string;
  /** Reminders: the message the reminder is about. */
  targetMessageId?: number;
}

/** Zulip's SCHEDULED_MESSAGE_LATE_CUTOFF_MINUTES: later than this, a delivery fails instead. */
export const LATE_CUTOFF_SECONDS = 10 * 60;

export const LATE_FAILURE_MESSAGE = 'Message could not be sent at the scheduled time.';
export const SCHEDULED_MESSAGE_MISSING = 'Scheduled message does not exist';
export const REMINDER_MISSING = 'Reminder does not exist';
export const DELIVERY_TIME_IN_PAST = 'Scheduled delivery time must be in the future.';

/** The four type names of the API and what they mean: `direct`/`private`, `channel`/`stream`. */
export function recipientType(type: string): 'stream' | 'private' {
  if (type === 'stream' || type === 'channel') return 'stream';
  if (type === 'private' || type === 'direct') return 'private';
  throw badRequest('Invalid type');
}

/**
 * `to` of a scheduled message is ids only (names and addresses are for POST /messages): a channel
 * id, or a list of user ids. Zulip's wording for a list with an address in it.
 */
export function checkRecipientIds(type: 'stream' | 'private', to: unknown): void {
  const ids = Array.isArray(to) ? to : [to];
  if (ids.every((id) => Number.isInteger(id))) return;
  throw badRequest(type === 'private' ? 'Recipient list may only contain user IDs' : 'Invalid data type for channel');
}

/** A delivery time must lie strictly after now (Zulip: `deliver_at <= timezone_now()` is refused). */
export function checkDeliveryTime(deliverAt: number, nowSeconds: number): void {
  if (deliverAt <= nowSeconds) throw badRequest(DELIVERY_TIME_IN_PAST);
}

/** Whether a delivery attempted at `nowMs` comes too late to be made (it fails instead). */
export function isTooLate(deliverAt: number, nowMs: number): boolean {
  return nowMs - deliverAt * 1000 > LATE_CUTOFF_SECONDS * 1000;
}

/** The notification bot's direct message when a scheduled message could not be sent (Zulip's wording). */
export function failureNotice(deliverAt: number, failureMessage: string): string {
  return [
    `The message you scheduled for ${globalTime(deliverAt)} was not sent because of the following error:`,
    '',
    `> ${failureMessage}`,
    '',
    '[View scheduled messages](#scheduled)',
  ].join('\n');
}

/** The `to` of the API: a channel id, or the list of user ids. */
export function recipientOf(record: ScheduledMessageRecord): number | number[] {
  return record.type === 'stream' ? record.channelId! : [...record.userIds!];
}

/** The ScheduledMessage object of GET /scheduled_messages, POST /register and the events. */
export function scheduledMessageObject(record: ScheduledMessageRecord): Record<string, unknown> {
  const object: Record<string, unknown> = {
    scheduled_message_id: record.id,
    type: record.type,
    to: recipientOf(record),
    content: record.content,
    rendered_content: record.renderedContent,
    scheduled_delivery_timestamp: record.deliverAt,
    failed: record.failed,
  };
  if (record.type === 'stream') object.topic = record.topic;
  return object;
}

/** The Reminder object of GET /reminders, POST /register and the events. */
export function reminderObject(record: ScheduledMessageRecord): Record<string, unknown> {
  return {
    reminder_id: record.id,
    type: 'private',
    to: [record.senderId],
    content: record.content,
    rendered_content: record.renderedContent,
    scheduled_delivery_timestamp: record.deliverAt,
    failed: record.failed,
    reminder_target_message_id: record.targetMessageId,
  };
}

/** Due order: by delivery time, then by id (first scheduled, first sent). */
export function dueOrder(a: { id: number; due: number }, b: { id: number; due: number }): number {
  return a.due - b.due || a.id - b.id;
}

/** The owner's `add` event: `scheduled_messages` for a scheduled message, `reminders` for a reminder. */
export function addedEvent(record: ScheduledMessageRecord): Record<string, unknown> {
  return record.kind === 'send'
    ? { type: 'scheduled_messages', op: 'add', scheduled_messages: [scheduledMessageObject(record)] }
    : { type: 'reminders', op: 'add', reminders: [reminderObject(record)] };
}

/** The owner's `update` event; Zulip's `reminders` events have no update, so a reminder is removed and added again. */
export function updatedEvents(record: ScheduledMessageRecord): Record<string, unknown>[] {
  return record.kind === 'send'
    ? [{ type: 'scheduled_messages', op: 'update', scheduled_message: scheduledMessageObject(record) }]
    : [removedEvent(record), addedEvent(record)];
}

/** The owner's `remove` event (deleted, or sent). */
export function removedEvent(record: ScheduledMessageRecord): Record<string, unknown> {
  return record.kind === 'send'
    ? { type: 'scheduled_messages', op: 'remove', scheduled_message_id: record.id }
    : { type: 'reminders', op: 'remove', reminder_id: record.id };
}
