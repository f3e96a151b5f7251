/**
 * What every walk of a message range shares, in memory or on disk: the width of the ids that end
 * the index keys, the interval a walk covers from its anchor, and which ranges memory may hold
 * as whole lists (id-lists.ts).
 */

/** The anchor part of messages.ts's WalkOptions (written out here: messages.ts imports this file). */
interface Anchor {
  reverse: boolean;
  from?: number;
  inclusive?: boolean;
}

/** Index keys end with the message id in this many digits. */
export const ID_WIDTH = 12;

/** Past every id a key can hold (12 digits). */
export const MAX_ID = 10 ** ID_WIDTH;

/** Ranges whose ids memory may hold as a whole list (id-lists.ts). */
export function isListedRange(range: { of: string }): boolean {
  return range.of === 'topic' || range.of === 'channel' || range.of === 'channel-span' || range.of === 'conversation' || range.of === 'sender';
}

/** A walk's ids as an inclusive interval [lo, hi] within [lowest, below); ids from MAX_ID on are past every key. */
export function walkBounds(options: Anchor, lowest: number, below: number): [number, number] {
  let lo = lowest;
  let hi = Math.min(below, MAX_ID) - 1;
  if (options.from !== undefined) {
    const anchor = options.inclusive ? options.from : options.reverse ? options.from - 1 : options.from + 1;
    if (options.reverse) hi = Math.min(hi, anchor);
    else lo = Math.max(lo, anchor);
  }
  return [lo, hi];
}
