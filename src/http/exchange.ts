/**
 * The exchange: one request's state that must survive the uWS callback, and answering it exactly
 * once. `track` registers the abort handler (STACK-NOTES #1) and counts the request in flight;
 * `write` is the one place bytes go out (corked, #7), after which nothing touches the response.
 * Errors become Zulip's envelope, or the exchange's own error format (pages answer HTML).
 */
import { DRAIN_LIMIT_BYTES } from './body-drain.js';
import type { HttpResponse } from '@trufflesuite/uws-js-unofficial';
import type { Logger } from 'pino';
import { ApiError } from '../domain/errors.js';
import { errorBody, internalError, statusLine, successBody, successBytes } from './envelope.js';
import type { RateDecision } from './rate-limit.js';
import { onBody, type HeldBody } from './request-head.js';
import { Deferred, type DeferredWriter, type HandlerResult, RawAnswer, RawJson } from '../shared/handler-result.js';

export { DRAIN_LIMIT_BYTES };

/**
 * The JSON type header as bytes: uWS copies a string argument through a UTF-8 conversion and a
 * heap allocation on every call, a Buffer's bytes as they are.
 */
const CONTENT_TYPE = Buffer.from('Content-Type');
const JSON_TYPE = 'application/json';
const JSON_TYPE_BYTES = Buffer.from(JSON_TYPE);

function writeContentType(res: HttpResponse, contentType: string): void {
  res.writeHeader(CONTENT_TYPE, contentType === JSON_TYPE ? JSON_TYPE_BYTES : contentType);
}
/** Route label for the observer when no route matched the path. */
export const UNMATCHED = 'unmatched';

/** `pause`/`resume` exist at run time in 20.30 but are missing from its typings. */
interface Pausable {
  pause(): void;
  resume(): void;
}

/** An error's body and headers, for exchanges that do not answer in the API's envelope (pages). */
export type ErrorFormat = (error: ApiError) => [string, Record<string, string>];

/** Per-request state that must survive the uWS callback. */
export interface Exchange {
  res: HttpResponse;
  aborted: boolean;
  head: boolean;
  started: number;
  /** Counted in flight, with an abort handler registered. */
  tracked: boolean;
  method: string;
  url: string;
  /** The matched route's pattern, for the observer. */
  route: string;
  /** The request declares a body that nobody has started reading yet. */
  bodyPending: boolean;
  /** Socket reading paused while an asynchronous handler runs (see `awaitAnswer`). */
  paused: boolean;
  /** Reading was resumed after a pause: uWS then closes the connection after 10 s idle (see `deliver`). */
  resumed: boolean;
  rate: RateDecision | undefined;
  deferred: Deferred | undefined;
  /** Unknown parameters, kept for a deferred answer. */
  ignored?: readonly string[];
  /** Set for pages: errors are answered in this format, not in the API's envelope. */
  errorFormat: ErrorFormat | undefined;
  /** The body's first chunks, kept while the request waited for its organization to load. */
  held?: HeldBody;
}

export interface ExchangeOptions {
  logger: Logger;
  /** See FrontOptions.observe. */
  observe?: (method: string, route: string, status: number, seconds: number) => void;
}

const NOTHING_IGNORED: readonly string[] = Object.freeze([]);

/**
 * The URLs of parked polls, held once: ten thousand parked `GET /api/v1/events` would otherwise
 * keep ten thousand copies of the same string. Bounded: the parked routes are few.
 */
const PARKED_URLS = new Map<string, string>();
const MAX_PARKED_URLS = 64;

function parkedUrl(url: string): string {
  const known = PARKED_URLS.get(url);
  if (known !== undefined) return known;
  if (PARKED_URLS.size < MAX_PARKED_URLS) PARKED_URLS.set(url, url);
  return url;
}

/** Every exchange of one front: answering, the abort handlers, and the count of requests in flight. */
export class Exchanges implements DeferredWriter {
  private inFlight = 0;
  private idleWaiters: (() => void)[] = [];
  /**
   * The exchange whose uWS callback is running (set by the front): uWS has its socket corked
   * already, so its answer is written without a cork call of its own (a native call and a
   * callback back into JavaScript less per request). Any other is corked as it is written.
   */
  corked: Exchange | undefined = undefined;

  constructor(private readonly options: ExchangeOptions) {}

  open(res: HttpResponse, method: string, url: string): Exchange {
    const ex: Exchange = {
      res, aborted: false, head: method === 'HEAD', started: 0, tracked: false, method, url,
      route: UNMATCHED, bodyPending: false, paused: false, resumed: false, rate: undefined, deferred: undefined, errorFormat: undefined,
      // Named now, not added later: an added property costs a parked poll a property array (~40 bytes) and the exchange another shape.
      ignored: undefined, held: undefined,
    };
    if (this.options.observe || this.options.logger.isLevelEnabled('info')) ex.started = performance.now();
    return ex;
  }

  /** Resolves when no request is being processed (parked long-polls excluded). */
  idle(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Registers abort handling once, before any asynchronous work, and counts the request as in flight. */
  track(ex: Exchange): void {
    if (ex.tracked) return;
    ex.tracked = true;
    this.inFlight++;
    ex.res.onAborted(() => {
      if (ex.aborted) return; // already answered (uWS may still report the close of a connection we ended)
      ex.aborted = true;
      this.settle();
      const deferred = ex.deferred;
      if (deferred) {
        deferred.done = true;
        deferred.listener?.parkAborted();
      }
    });
  }

  private settle(): void {
    this.inFlight--;
    if (this.inFlight === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  /** Stops reading the connection (see `awaitAnswer`); `write` reads it again. */
  pause(ex: Exchange): void {
    if (ex.paused) return;
    (ex.res as unknown as Pausable).pause();
    ex.paused = true;
  }

  /** Reads the connection again (after a pause while the request waited). */
  resume(ex: Exchange): void {
    if (!ex.paused) return;
    ex.paused = false;
    ex.resumed = true;
    (ex.res as unknown as Pausable).resume();
  }

  /**
   * Answers once `result` settles: `then` with its value (whatever `then` throws is answered as
   * the error), the error if it rejects. Meanwhile the connection is not read: uWS 20.30 closes a
   * connection on which a request arrives while the previous answer is pending (pipelining).
   */
  awaitAnswer<T>(ex: Exchange, result: Promise<T>, then: (value: T) => void): void {
    this.track(ex);
    this.pause(ex);
    result.then(
      (value) => {
        try {
          then(value);
        } catch (error) {
          this.fail(ex, error);
        }
      },
      (error) => this.fail(ex, error),
    );
  }

  /** A handler's result: the envelope, a raw answer, or a parked response written later by `finish`. */
  deliver(ex: Exchange, result: HandlerResult, ignored: readonly string[]): void {
    if (result instanceof Deferred) {
      this.track(ex);
      // A parked poll keeps reading, so that a client leaving is noticed (onAborted), unless its
      // reading was paused on the way: uWS's resume arms a 10 s idle timeout that only a pause
      // clears, and it would cut the poll. Such a poll stays paused: a client that leaves is
      // noticed when its answer is written (the queue keeps what it did not acknowledge).
      if (ex.paused || ex.resumed) this.pause(ex);
      // Held until the answer: the shared empty list and one copy of the URL, not the request's own (see PARKED_URLS).
      ex.ignored = ignored.length > 0 ? ignored : NOTHING_IGNORED;
      ex.url = parkedUrl(ex.url);
      result.writer = this;
      result.exchange = ex;
      return;
    }
    if (result instanceof RawAnswer) {
      // A file or page: its own status and headers (Content-Type among them), the body as is.
      this.write(ex, result.status, result.body, result.headers, false, null);
      return;
    }
    if (result instanceof RawJson && result.encodedFields !== undefined) {
      this.write(ex, 200, successBytes(result, ignored));
      return;
    }
    if (result instanceof RawJson && result.encoded !== undefined && ignored.length === 0) {
      // The same answer for many requests (the user list): encoded once, written as bytes.
      this.write(ex, 200, (result.encoded.body ??= Buffer.from(successBody(result, ignored))));
      return;
    }
    this.write(ex, 200, successBody(result, ignored));
  }

  /** Writes a parked (deferred) response once its owner settles it. */
  finish(exchange: unknown, outcome: unknown, isError: boolean): void {
    const ex = exchange as Exchange;
    if (isError) {
      this.fail(ex, outcome);
      return;
    }
    try {
      const result = outcome as Record<string, unknown> | RawJson;
      const ignored = ex.ignored ?? [];
      // A parked poll's events come as bytes shared by every queue answered with them (event-queue.ts).
      this.write(ex, 200, result instanceof RawJson && result.encodedFields !== undefined ? successBytes(result, ignored) : successBody(result, ignored));
    } catch (error) {
      this.fail(ex, error);
    }
  }

  /** Answers an error, after the request's unread body if it has one (see DRAIN_LIMIT_BYTES). */
  refuse(ex: Exchange, error: unknown): void {
    if (ex.aborted) return;
    if (!ex.bodyPending) {
      this.fail(ex, error);
      return;
    }
    const apiError = this.asApiError(ex, error);
    const [body, headers] = this.errorAnswer(ex, apiError);
    this.answerAfterBody(ex, apiError.status, body, headers);
  }

  fail(ex: Exchange, error: unknown, close = false): void {
    if (ex.aborted) return;
    const apiError = this.asApiError(ex, error);
    const [body, headers] = this.errorAnswer(ex, apiError);
    this.write(ex, apiError.status, body, headers, close);
  }

  /** An answer decided before the body was read: written once the client has sent it (see DRAIN_LIMIT_BYTES). */
  answerAfterBody(ex: Exchange, status: number, body: string | Buffer, headers: Record<string, string>): void {
    if (!ex.bodyPending) {
      this.write(ex, status, body, headers);
      return;
    }
    ex.bodyPending = false;
    this.track(ex);
    let drained = 0;
    onBody(ex.res, ex.held, (chunk, isLast) => {
      if (ex.aborted) return;
      drained += chunk.byteLength;
      if (isLast || drained > DRAIN_LIMIT_BYTES) this.write(ex, status, body, headers, true);
    });
  }

  /** An error's body and headers: the API's envelope, or the exchange's own format (pages). */
  private errorAnswer(ex: Exchange, error: ApiError): [string, Record<string, string>] {
    if (ex.errorFormat) return ex.errorFormat(error);
    return [errorBody(error), error.headers];
  }

  private asApiError(ex: Exchange, error: unknown): ApiError {
    if (error instanceof ApiError) return error;
    this.options.logger.error({ err: error, method: ex.method, url: ex.url }, 'unexpected error');
    return internalError();
  }

  write(
    ex: Exchange,
    status: number,
    body: string | Buffer,
    headers?: Readonly<Record<string, string>>,
    close = false,
    contentType: string | null = 'application/json',
  ): void {
    if (ex.aborted) return;
    const tracked = ex.tracked;
    const res = ex.res;
    ex.aborted = true; // written: nothing may touch `res` again
    try {
      if (this.corked === ex) this.send(ex, status, body, headers, close, contentType);
      else res.cork(() => this.send(ex, status, body, headers, close, contentType));
    } catch (error) {
      // A half-written answer cannot be completed: drop the connection (onAborted first, or uWS aborts).
      this.options.logger.error({ err: error, method: ex.method, url: ex.url }, 'cannot write the answer');
      try {
        if (!tracked) res.onAborted(() => {});
        res.close();
      } catch {
        // already ended: the connection is uWS's again
      }
    }
    if (tracked) this.settle();
    this.observe(ex, status);
  }

  /** The status line, headers and body, in one corked write (see `write`). */
  private send(ex: Exchange, status: number, body: string | Buffer, headers: Readonly<Record<string, string>> | undefined, close: boolean, contentType: string | null): void {
    const res = ex.res;
    this.resume(ex);
    // uWS answers 200 OK unless told otherwise: one native call less on every success.
    if (status !== 200) res.writeStatus(statusLine(status));
    if (ex.rate) {
      res.writeHeader('X-RateLimit-Limit', String(ex.rate.limit));
      res.writeHeader('X-RateLimit-Remaining', String(ex.rate.remaining));
      res.writeHeader('X-RateLimit-Reset', String(Math.ceil(ex.rate.resetAt)));
    }
    if (headers) for (const name in headers) res.writeHeader(name, headers[name]);
    if (status === 204 || status === 304) {
      res.end('', close);
      return;
    }
    // Pages and public files name their own type among the headers.
    if (contentType !== null && !headers?.['Content-Type']) writeContentType(res, contentType);
    if (ex.head) {
      // The length GET would send, written by hand: in uWS 20.30 endWithoutBody(length) leaves
      // the response pending (it waits for that many bytes), and so does any call with
      // arguments, which aborts the process when done inside the request callback. Only the
      // bare call ends the head, so a HEAD answer cannot ask for the connection to close.
      res.writeHeader('Content-Length', String(Buffer.byteLength(body)));
      res.endWithoutBody();
    } else {
      res.end(body, close);
    }
  }

  private observe(ex: Exchange, status: number): void {
    const observe = this.options.observe;
    if (observe) observe(ex.method, ex.route, status, (performance.now() - ex.started) / 1000);
    const logger = this.options.logger;
    if (logger.isLevelEnabled('info')) {
      const ms = performance.now() - ex.started;
      logger.info({ method: ex.method, url: ex.url, status, ms: Math.round(ms * 10) / 10 }, 'request');
    }
  }
}
