/**
 * The message cursor (Zulip's selected message): which message of the view the keys act on.
 * It moves over server messages only (a local echo has no id to reply to), and starts, as
 * Zulip's does, at the first unread message of the view or else at the newest.
 */

/** The ids the cursor can rest on, in the view's order. */
export function cursorIds(ids: readonly number[]): number[] {
  return ids.filter((id) => Number.isInteger(id));
}

/** Where the cursor starts: the first unread message, or the newest one. */
export function initialCursor(ids: readonly number[], isUnread: (id: number) => boolean): number | undefined {
  const ok = cursorIds(ids);
  return ok.find(isUnread) ?? ok.at(-1);
}

/**
 * The cursor moved by `step` messages (negative: older), stopping at the ends. A cursor on a
 * message no longer in the view (deleted, moved away) continues from where it would be.
 */
export function moveCursor(ids: readonly number[], current: number | undefined, step: number, isUnread: (id: number) => boolean = () => false): number | undefined {
  const ok = cursorIds(ids);
  if (ok.length === 0) return undefined;
  if (current === undefined) return initialCursor(ok, isUnread);
  let at = ok.indexOf(current);
  if (at < 0) {
    // The index of the first id after the lost one; moving older from there goes one before it.
    const after = ok.findIndex((id) => id > current);
    at = after < 0 ? ok.length : after;
    if (step > 0) at -= 1;
  }
  return ok[Math.max(0, Math.min(ok.length - 1, at + step))];
}
