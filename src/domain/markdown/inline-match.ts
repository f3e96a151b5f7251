/** Matching a sticky pattern exactly at an inline rule's position, within the current inline range. */
import type { StateInline } from 'markdown-it';

/**
 * `pattern` must be sticky (`y`): it matches at `state.pos` without slicing the source.
 * A match running past `posMax` (e.g. out of a link label) does not count.
 */
export function matchAt(pattern: RegExp, state: StateInline): RegExpExecArray | null {
  pattern.lastIndex = state.pos;
  const match = pattern.exec(state.src);
  return match && state.pos + match[0].length <= state.posMax ? match : null;
}
