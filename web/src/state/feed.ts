/** The feed's rows: a header wherever the conversation changes, then its messages (consecutive ones by one sender grouped). */
import { dmKey, dmUserIds, type Message } from './types.js';

export type FeedRow =
  | { kind: 'header'; key: string; conversation: Conversation; date: number; firstId: number }
  | { kind: 'message'; key: string; message: Message; continued: boolean };

export type Conversation = { type: 'channel'; streamId: number; topic: string } | { type: 'dm'; userIds: number[] };

/** Messages by one sender within this many seconds in one conversation share a sender line. */
const GROUP_SECONDS = 5 * 60;

export function conversationOf(message: Message, selfId: number): Conversation {
  return message.type === 'stream'
    ? { type: 'channel', streamId: message.stream_id!, topic: message.subject }
    : { type: 'dm', userIds: dmUserIds(message, selfId) };
}

export function conversationKey(c: Conversation): string {
  return c.type === 'channel' ? `c${c.streamId}:${c.topic.toLowerCase()}` : `d${dmKey(c.userIds)}`;
}

export function feedRows(messages: readonly Message[], selfId: number): FeedRow[] {
  const rows: FeedRow[] = [];
  let lastKey = '';
  let last: Message | undefined;
  for (const message of messages) {
    const conversation = conversationOf(message, selfId);
    const key = conversationKey(conversation);
    if (key !== lastKey) {
      rows.push({ kind: 'header', key: `h${message.id}`, conversation, date: message.timestamp, firstId: message.id });
      lastKey = key;
      last = undefined;
    }
    const continued = last !== undefined && last.sender_id === message.sender_id && message.timestamp - last.timestamp < GROUP_SECONDS;
    rows.push({ kind: 'message', key: message.local_id ? `l${message.local_id}` : `m${message.id}`, message, continued });
    last = message;
  }
  return rows;
}

/**
 * The rows of a new `feedRows` call with the previous call's row objects kept wherever nothing
 * changed (same key, same message object, same grouping; a header with the same conversation and
 * date): memoised row components then skip them. `previous` is replaced by the new rows' map.
 * Messages are replaced, never changed in place (state/messages.ts), so object identity is enough.
 */
export function reuseRows(previous: Map<string, FeedRow>, fresh: readonly FeedRow[]): FeedRow[] {
  const kept = fresh.map((row) => {
    const old = previous.get(row.key);
    return old && sameRow(old, row) ? old : row;
  });
  previous.clear();
  for (const row of kept) previous.set(row.key, row);
  return kept;
}

function sameRow(a: FeedRow, b: FeedRow): boolean {
  if (a.kind === 'message' && b.kind === 'message') return a.message === b.message && a.continued === b.continued;
  if (a.kind === 'header' && b.kind === 'header') return a.date === b.date && a.firstId === b.firstId && conversationKey(a.conversation) === conversationKey(b.conversation);
  return false;
}
