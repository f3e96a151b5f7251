/**
 * The body reader: a request's body up to its limit (the route's own, else the server's),
 * refused on the declared length before a byte is read, or once it runs past the limit; a body
 * far past a route's own limit is answered at once and the connection closed.
 */
import { ApiError } from '../domain/errors.js';
import { ANSWER_AT_ONCE_PAST_BYTES } from './body-drain.js';
import { DRAIN_LIMIT_BYTES, type Exchange, type Exchanges } from './exchange.js';
import { onBody } from './request-head.js';

/** A route's own body limit and the refusal to answer when a body exceeds it. */
export interface BodyLimit {
  bytes: number;
  refusal: ApiError;
}

/**
 * Reads the request's body (up to `own`, else `serverLimit` bytes), then calls `done` with it;
 * whatever `done` throws is answered as the error. Registers the abort handler first.
 */
export function readBody(
  exchanges: Exchanges,
  ex: Exchange,
  contentLength: string,
  own: BodyLimit | undefined,
  serverLimit: number,
  done: (body: Buffer) => void,
): void {
  const limit = own?.bytes ?? serverLimit;
  const refusal = () => own?.refusal ?? tooLarge(limit);
  // Refused on the declared length, before a byte of the body is read.
  if (contentLength !== '' && Number(contentLength) > limit) {
    // A route's own limit (an upload) may be far below what a client declares: rather than
    // drain such a body, answer now and close (a client waiting for the answer reads it).
    if (own && Number(contentLength) > limit + ANSWER_AT_ONCE_PAST_BYTES) {
      ex.bodyPending = false;
      exchanges.fail(ex, refusal(), true);
      return;
    }
    throw refusal();
  }
  ex.bodyPending = false;
  exchanges.track(ex);
  const chunks: Buffer[] = [];
  let size = 0;
  onBody(ex.res, ex.held, (chunk, isLast) => {
    if (ex.aborted) return;
    size += chunk.byteLength;
    if (size > limit) {
      // Refused, but answered once the client has stopped sending (see DRAIN_LIMIT_BYTES).
      chunks.length = 0;
      if (isLast || size > limit + DRAIN_LIMIT_BYTES) exchanges.fail(ex, refusal(), true);
      return;
    }
    chunks.push(Buffer.from(chunk.slice(0)));
    if (!isLast) return;
    try {
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      chunks.length = 0;
      done(body);
    } catch (error) {
      exchanges.fail(ex, error);
    }
  });
}

function tooLarge(limit: number): ApiError {
  return new ApiError('BAD_REQUEST', `Request body too large (limit: ${limit} bytes)`, 413);
}
