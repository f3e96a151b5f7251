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
