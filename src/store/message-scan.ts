/**
 * Reads that take a whole range at once (POST /register's unread messages): ids as arrays, from
 * memory when the range is held there, and one user's rows of many messages. Beside the message
 * store because they read its key prefixes (`MessageStore.prefixOf`, store-internal).
 */
import type { MessageRecord } from '../domain/messages.js';
import type { MessageRange, MessageStore } from './messages.js';
import { isListedRange, MAX_ID } from './walk-range.js';

/** Every id of a range that is not a union (no anchor): no generator step per id when in memory. */
export async function idList(store: MessageStore, range: Exclude<MessageRange, { of: 'union' }>, reverse: boolean): Promise<number[]> {
  const span = range.of === 'channel-span' ? range : undefined;
  const lo = span?.from ?? 0;
  const hi = Math.min(span?.to ?? Infinity, MAX_ID) - 1;
  const listed = isListedRange(range);
  if (listed) {
    const held = store.lists.slice(store.prefixOf(range), lo, hi, reverse);
    if (held !== undefined) return held;
  }
  const inMemory = range.of === 'unread' ? store.rowBook.unreadIds(range.userId, 256, reverse) : undefined;
  const ids: number[] = [];
  if (inMemory) {
    for (const id of inMemory) if (id >= lo && id <= hi) ids.push(id);
    return ids;
  }
  for await (const id of store.ids(range, { reverse })) ids.push(id);
  return ids;
}

/**
 * Reads one user's rows of many messages: the user's book looked up once, not per message (each
 * lookup refreshes its place), with `MessageStore.row`'s rule for rows a write is changing.
 */
export function rowReader(store: MessageStore, userId: number): (messageId: number) => number | undefined {
  const rows = store.rowBook.rowsOf(userId);
  if (rows === undefined) return (messageId) => store.row(userId, messageId);
  return (messageId) => (store.rowBook.isHeld(userId, messageId) ? store.row(userId, messageId) : rows.get(messageId));
}

/**
 * Reads many records (POST /register's unread messages): like `MessageStore.get`, but a cached
 * record keeps its place in the cache's eviction order; refreshing 10,000 places cost more than
 * the reads themselves.
 */
export function recordReader(store: MessageStore): (messageId: number) => MessageRecord | undefined {
  return (messageId) => store.cache.peek(messageId) ?? store.get(messageId);
}
