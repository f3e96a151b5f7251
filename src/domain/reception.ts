/**
 * Reception intervals: which of a channel's messages a user received (Zulip's "has a
 * UserMessage row"), as message-id intervals [from, to) opened by subscribing and closed by
 * unsubscribing. Stored flat: [from₁, to₁, from₂, to₂, …, fromₙ] — an odd length means the
 * last interval is still open (the user is subscribed). Ids are handed out in order, so every
 * message written while the user was subscribed lies inside an interval and no other does.
 */

export type Intervals = readonly number[];

export const NO_INTERVALS: Intervals = Object.freeze([]);

export const isOpen = (intervals: Intervals) => intervals.length % 2 === 1;

/** Opens an interval at `from` (no change when one is open). */
export function openAt(intervals: Intervals, from: number): Intervals {
  if (isOpen(intervals)) return intervals;
  // An interval closed at `from` and reopened there is one interval: nothing was sent between.
  if (intervals.length > 0 && intervals[intervals.length - 1] === from) return intervals.slice(0, -1);
  return [...intervals, from];
}

/** Closes the open interval at `to` (no change when none is open); empty intervals vanish. */
export function closeAt(intervals: Intervals, to: number): Intervals {
  if (!isOpen(intervals)) return intervals;
  if (intervals[intervals.length - 1] === to) return intervals.slice(0, -1);
  return [...intervals, to];
}

/** Does some interval hold `id`? */
export function holds(intervals: Intervals, id: number): boolean {
  // Few intervals per subscription: a linear walk from the newest is fastest.
  const n = intervals.length;
  // Never received anything (reading a channel's history): nothing to walk, and no read at index -1.
  if (n === 0) return false;
  let end = n % 2 === 1 ? Infinity : intervals[n - 1]!;
  for (let i = n % 2 === 1 ? n - 1 : n - 2; i >= 0; i -= 2) {
    if (id >= end) return false;
    if (id >= intervals[i]!) return true;
    end = intervals[i - 1] ?? -Infinity;
  }
  return false;
}

/** The intervals as [from, to) pairs (to: Infinity when open), oldest first, clipped to ids above `above`. */
export function spans(intervals: Intervals, above = 0): [number, number][] {
  const found: [number, number][] = [];
  for (let i = 0; i < intervals.length; i += 2) {
    const from = Math.max(intervals[i]!, above + 1);
    const to = intervals[i + 1] ?? Infinity;
    if (from < to) found.push([from, to]);
  }
  return found;
}
