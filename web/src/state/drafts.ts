/**
 * Drafts and scheduled messages as the client lists them: seeded by POST /register (or a fresh
 * GET), kept by the `drafts` and `scheduled_messages` events, newest edit first and soonest
 * delivery first; and where each one's message would go.
 */
import type { Conversation } from './feed.js';

export interface Draft {
  id: number;
  type: 'stream' | 'private' | '';
  to: number[];
  topic: string;
  content: string;
  timestamp: number;
}

export interface ScheduledMessage {
  scheduled_message_id: number;
  type: 'stream' | 'private';
  to: number | number[];
  topic?: string;
  content: string;
  rendered_content: string;
  scheduled_delivery_timestamp: number;
  failed: boolean;
}

/** A `drafts` event applied (add, update, remove); the list newest edit first. */
export function applyDraftsEvent(list: readonly Draft[], event: Readonly<Record<string, unknown>>): Draft[] {
  let next = [...list];
  if (event.op === 'add') {
    const added = (event.drafts as Draft[] | undefined) ?? [];
    next = [...next.filter((d) => !added.some((a) => a.id === d.id)), ...added];
  } else if (event.op === 'update' && event.draft) {
    const draft = event.draft as Draft;
    next = [...next.filter((d) => d.id !== draft.id), draft];
  } else if (event.op === 'remove') {
    next = next.filter((d) => d.id !== event.draft_id);
  }
  return sortDrafts(next);
}

export function sortDrafts(list: readonly Draft[]): Draft[] {
  return [...list].sort((a, b) => b.timestamp - a.timestamp || b.id - a.id);
}

/** A `scheduled_messages` event applied; the list soonest delivery first. */
export function applyScheduledEvent(
  list: readonly ScheduledMessage[],
  event: Readonly<Record<string, unknown>>,
): ScheduledMessage[] {
  let next = [...list];
  if (event.op === 'add') {
    const added = (event.scheduled_messages as ScheduledMessage[] | undefined) ?? [];
    next = [...next.filter((s) => !added.some((a) => a.scheduled_message_id === s.scheduled_message_id)), ...added];
  } else if (event.op === 'update' && event.scheduled_message) {
    const changed = event.scheduled_message as ScheduledMessage;
    next = next.map((s) => (s.scheduled_message_id === changed.scheduled_message_id ? { ...s, ...changed } : s));
  } else if (event.op === 'remove') {
    next = next.filter((s) => s.scheduled_message_id !== event.scheduled_message_id);
  }
  return sortScheduled(next);
}

export function sortScheduled(list: readonly ScheduledMessage[]): ScheduledMessage[] {
  return [...list].sort((a, b) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp || a.scheduled_message_id - b.scheduled_message_id);
}

/**
 * Where a draft or a scheduled message goes, as a conversation (undefined for a draft without a
 * destination yet). A direct message to no one else is a note to self.
 */
export function destinationOf(item: { type: string; to: number | number[]; topic?: string }, selfId: number): Conversation | undefined {
  const to = Array.isArray(item.to) ? item.to : [item.to];
  if (item.type === 'stream') return to[0] === undefined ? undefined : { type: 'channel', streamId: to[0], topic: item.topic ?? '' };
  if (item.type !== 'private') return undefined;
  const others = to.filter((id) => id !== selfId).sort((a, b) => a - b);
  return { type: 'dm', userIds: others.length ? others : [selfId] };
}

/** A time as a `datetime-local` field shows it (the reader's zone, to the minute); `new Date(value)` reads it back. */
export function localInputValue(seconds: number): string {
  const d = new Date(seconds * 1000);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
}
