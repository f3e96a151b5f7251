/** What a handler may return besides a plain object of response fields: shared by the HTTP front, which writes it, and the event queues, which park it. */

/**
 * Where the HTTP front keeps the encoded answer of fields that many requests answer alike (the
 * whole user list): the owner of the fields keeps the slot beside them and drops both together.
 */
export class EncodedAnswer {
  body: Buffer | undefined = undefined;
}

/** Response fields already serialised: the JSON text of an object without its braces. */
export class RawJson {
  constructor(
    readonly fields: string,
    /** Given when these exact fields answer many requests: the answer is then encoded once. */
    readonly encoded?: EncodedAnswer,
    /**
     * More fields already encoded as UTF-8, written after `fields` (each a run of fields without
     * braces, or such a run given in pieces to be joined as they are): large parts kept encoded
     * by their owners are copied, not encoded again per answer.
     */
    readonly encodedFields?: readonly (Buffer | readonly Buffer[])[],
  ) {}
}

/**
 * A response that is written later (a parked long-poll). The HTTP layer binds it to the
 * connection; the owner calls `resolve` or `reject` once, or hears `onAbort` if the client
 * leaves first. Deliberately small: ten thousand of these may be parked at once.
 */
export interface DeferredWriter {
  finish(exchange: unknown, outcome: unknown, isError: boolean): void;
}

/** Told when the client of a parked response goes away (an object, not a closure: one less allocation per poll). */
export interface AbortListener {
  parkAborted(): void;
}

export class Deferred {
  /** Set by the HTTP layer: who writes the result, and to which exchange. */
  writer: DeferredWriter | undefined = undefined;
  exchange: unknown = undefined;
  listener: AbortListener | undefined = undefined;
  done = false;

  resolve(result: Record<string, unknown> | RawJson): void {
    if (this.done) return;
    this.done = true;
    this.writer?.finish(this.exchange, result, false);
  }

  reject(error: unknown): void {
    if (this.done) return;
    this.done = true;
    this.writer?.finish(this.exchange, error, true);
  }

  /** `listener.parkAborted()` runs when the client disconnects before the response was written. */
  onAbort(listener: AbortListener): void {
    this.listener = listener;
  }
}

/**
 * An answer that is not the JSON envelope: a file's bytes (or an HTML error page), with its own
 * status and headers. Written as is; for HEAD only the headers and the length.
 */
export class RawAnswer {
  constructor(
    readonly status: number,
    readonly headers: Readonly<Record<string, string>>,
    readonly body: Buffer | string,
  ) {}
}

export type HandlerResult = Record<string, unknown> | RawJson | Deferred | RawAnswer;
