/**
 * Work the first screen does not need, run when the page is idle: right after a load the page may be
 * switching channels, and a re-render or a request then delays the messages asked for. The work still
 * happens (within `timeoutMs` at the latest), and where requestIdleCallback is missing, after a timer.
 */
export function whenIdle(work: () => void, timeoutMs = 2000): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => work(), { timeout: timeoutMs });
  else setTimeout(work, 50);
}
