/**
 * Walking a range synchronously when memory holds all of it (topic, channel, conversation and
 * sender lists, a user's unread rows, and unions of those): GET /messages then reads its page in
 * one loop, without an async generator step (several microtasks) per id and per level of the
 * walk, which cost more than the rest of the page. Same ids, same order as `MessageStore.ids`.
 */
import { MAX_ID, type MessageRange, type MessageStore, type WalkOptions } from './messages.js';

/** A walk's bounds as an inclusive interval [lo, hi] (MessageStore's idsWithPrefix, the same rule). */
function bounds(options: WalkOptions, lowest: number, below: number): [number, number] {
  let lo = lowest;
  let hi = Math.min(below, MAX_ID) - 1;
  if (options.from !== undefined) {
    const anchor = options.inclusive ? options.from : options.reverse ? options.from - 1 : options.from + 1;
    if (options.reverse) hi = Math.min(hi, anchor);
    else lo = Math.max(lo, anchor);
  }
  return [lo, hi];
}

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
  const [lo, hi] = bounds(options, span?.from ?? 0, span?.to ?? Infinity);
  if (lo > hi || hi < 0) return [];
  const listed = range.of === 'topic' || range.of === 'channel' || range.of === 'channel-span' || range.of === 'conversation' || range.of === 'sender';
  if (listed) return store.lists.walk(store.prefixOf(range), lo, hi, options.reverse);
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
