/**
 * When a new narrow is shown: with its first page, not before. A switch to a narrow whose messages
 * are not loaded yet keeps the page as it is while they are fetched (tens of ms on a fast link) and
 * shows the narrow and its messages in one render. Drawing the narrow at once meant a render and
 * a frame of "Loading…" on the main thread while the answer waited behind them, and a second
 * render of the feed when it came. If the page is slow, the narrow is shown anyway after `waitMs`
 * (with "Loading…"), so a click is never left without an answer. The last switch asked wins.
 */

export interface Timers {
  setTimeout(work: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

const GLOBAL_TIMERS: Timers = {
  setTimeout: (work, ms) => setTimeout(work, ms),
  clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

export class NarrowSwitch<N> {
  private asked = 0;
  private shown = 0;
  private timer: unknown;
  private latest: N | undefined;

  constructor(
    private readonly show: (narrow: N) => void,
    private readonly waitMs: number,
    private readonly timers: Timers = GLOBAL_TIMERS,
  ) {}

  /** The narrow of the switch asked last, while it waits for its page. */
  get waiting(): N | undefined {
    return this.shown === this.asked ? undefined : this.latest;
  }

  /**
   * Shows `narrow` once `page` settles (fetched or failed) or `waitMs` has passed, whichever is
   * first, unless another switch was asked meanwhile; at once when there is no page to wait for.
   * `then` runs in the same step as the showing (what else changes with the narrow).
   */
  go(narrow: N, page: Promise<unknown> | undefined, then?: () => void): void {
    const ticket = ++this.asked;
    this.latest = narrow;
    this.timers.clearTimeout(this.timer);
    const show = () => {
      if (ticket !== this.asked || this.shown === ticket) return;
      this.shown = ticket;
      this.timers.clearTimeout(this.timer);
      this.show(narrow);
      then?.();
    };
    if (!page) return show();
    this.timer = this.timers.setTimeout(show, this.waitMs);
    page.then(show, show);
  }
}
