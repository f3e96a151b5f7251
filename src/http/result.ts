/** What a handler may return besides a plain object of response fields. */

/** Response fields already serialised: the JSON text of an object without its braces. */
export class RawJson {
  constructor(readonly fields: string) {}
}

/**
 * A response that is written later (a parked long-poll). The HTTP layer binds it to the
 * connection; the owner calls `resolve` or `reject` once, or hears `onAbort` if the client
 * leaves first. Deliberately small: ten thousand of these may be parked at once.
 */
export class Deferred {
  /** Set by the HTTP layer: writes the result to the connection. */
  finish: ((outcome: unknown, isError: boolean) => void) | undefined = undefined;
  abortHandler: (() => void) | undefined = undefined;
  done = false;

  resolve(result: Record<string, unknown> | RawJson): void {
    if (this.done) return;
    this.done = true;
    this.finish?.(result, false);
  }

  reject(error: unknown): void {
    if (this.done) return;
    this.done = true;
    this.finish?.(error, true);
  }

  /** Called when the client disconnects before the response was written. */
  onAbort(handler: () => void): void {
    this.abortHandler = handler;
  }
}

export type HandlerResult = Record<string, unknown> | RawJson | Deferred;
