/**
 * Walking a range synchronously when memory holds all of it (topic, channel, conversation and
 * sender lists, a user's unread rows, and unions of those): GET /messages then reads its page in
 * one loop, without an async generator step (several microtasks) per id and per level of the
 * walk, which cost more than the rest of the page. Same ids, same order as `MessageStore.ids`.
 */
import type { MessageRange, MessageStore, WalkOptions } from './messages.js';
import { isListedRange, walkBounds } from './walk-range.js';

/**
 * The ids of `range` from the options' anchor in their direction, or undefined when some part
 * of it is not in memory (the caller then walks the store; the missing lists are being read).
 */
export function heldIds(store: MessageStore, range: MessageRange, options: WalkOptions): Iterable<number> | undefined {
  if (range.of === 'union') {
    const parts: Iterable<number>[] = [];
    for (const part of range.ranges) {
      const ids = heldIds(store, part, options);
      if (ids === undefined) return undefined;
      // Parts known to be empty (no unread rows, a span past the anchor) take no place in the merge.
      if (!Array.isArray(ids) || ids.length > 0) parts.push(ids);
    }
    return parts.length <= 1 ? (parts[0] ?? []) : mergeHeld(parts, options.reverse);
  }
  const span = range.of === 'channel-span' ? range : undefined;
  const [lo, hi] = walkBounds(options, span?.from ?? 0, span?.to ?? Infinity);
  if (lo > hi || hi < 0) return [];
  if (isListedRange(range)) return store.lists.walk(store.prefixOf(range), lo, hi, options.reverse);
  if (range.of !== 'unread') return undefined;
  const unread = store.rowBook.unreadIds(range.userId, 256, options.reverse);
  return unread && unread.filter((id) => id >= lo && id <= hi);
}

/** Ascending (or descending) walks merged into one, each id once. */
function* mergeHeld(parts: Iterable<number>[], reverse: boolean): Generator<number> {
  const walks = parts.map((part) => part[Symbol.iterator]());
  const heads = walks.map((walk) => walk.next().value as number | undefined);
  for (;;) {
    let best: number | undefined;
    for (const head of heads) if (head !== undefined && (best === undefined || (reverse ? head > best : head < best))) best = head;
    if (best === undefined) return;
    yield best;
    for (let i = 0; i < heads.length; i++) if (heads[i] === best) heads[i] = walks[i]!.next().value as number | undefined;
  }
}
