/**
 * The request's head as the front reads it, and a request held while its organization loads
 * (organizations load at their first request): the head copied out of uWS's `req`, invalid once
 * the callback returns (STACK-NOTES #3), and the body's first chunks kept, since uWS drops data
 * that arrives with no `onData` handler.
 */
import type { HttpRequest, HttpResponse } from '@trufflesuite/uws-js-unofficial';

/** What the front reads of a request's head: uWS's `HttpRequest`, or a copy of it. */
export interface RequestHead {
  getHeader(lowerCaseName: string): string;
  getQuery(): string | undefined;
  forEach(visit: (name: string, value: string) => void): void;
}

/** A copy of the head that outlives the uWS callback. */
export function copyHead(req: HttpRequest): RequestHead {
  const headers = new Map<string, string>();
  req.forEach((name, value) => {
    // uWS's getHeader answers the first of repeated headers: the copy does the same.
    if (!headers.has(name)) headers.set(name, value);
  });
  const query = req.getQuery();
  return {
    getHeader: (name) => headers.get(name) ?? '',
    getQuery: () => query,
    forEach: (visit) => headers.forEach((value, name) => visit(name, value)),
  };
}

type DataHandler = (chunk: ArrayBuffer, isLast: boolean) => void;

/**
 * The body of a held request: chunks are copied as they come (the socket is paused meanwhile,
 * so at most what one read brought is kept) and handed to the reader once it is attached.
 */
export class HeldBody {
  private readonly chunks: ArrayBuffer[] = [];
  private ended = false;
  private reader: DataHandler | undefined;

  constructor(res: HttpResponse) {
    res.onData((chunk, isLast) => {
      if (this.reader) return this.reader(chunk, isLast);
      this.chunks.push(chunk.slice(0));
      if (isLast) this.ended = true;
    });
  }

  /** Attaches the body's reader: what came meanwhile first, the rest as it comes. */
  onData(reader: DataHandler): void {
    this.reader = reader;
    const kept = this.chunks.splice(0);
    kept.forEach((chunk, i) => reader(chunk, this.ended && i === kept.length - 1));
  }
}

/** Attaches a body reader to a request, held or not. */
export function onBody(res: HttpResponse, held: HeldBody | undefined, reader: DataHandler): void {
  if (held) held.onData(reader);
  else res.onData(reader);
}

/** Every header of a webhook's request, read while `req` is valid. */
export function readRaw(req: RequestHead): { headers: Record<string, string>; json: string } {
  const headers: Record<string, string> = {};
  req.forEach((name, value) => {
    headers[name.toLowerCase()] = value;
  });
  return { headers, json: '' };
}

export const isJson = (contentType: string) => contentType.split(';', 1)[0]!.trim().toLowerCase() === 'application/json';

/**
 * Whether the request declares a body (a length above zero, or chunks), given its Content-Length
 * (read once by the caller, who needs it again): Transfer-Encoding is only read without a length.
 */
export function hasBody(req: RequestHead, contentLength = req.getHeader('content-length')): boolean {
  return (contentLength !== '' && contentLength !== '0') || req.getHeader('transfer-encoding') !== '';
}

/** What `\s` and `trim()` treat as white space (WhiteSpace and LineTerminator). */
function isSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 ||
    code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}

/**
 * `ZulipPython/0.9.0 (Linux)` → `ZulipPython`; no User-Agent → `Unspecified`: the first run of
 * characters after leading white space up to a `/` or white space. Read for every request, so a
 * scan rather than `trim().split(regex)` and its array.
 */
export function clientFromUserAgent(userAgent: string): string {
  const length = userAgent.length;
  let start = 0;
  while (start < length && isSpace(userAgent.charCodeAt(start))) start++;
  let end = start;
  for (let code; end < length && (code = userAgent.charCodeAt(end)) !== 0x2f && !isSpace(code); end++);
  return end > start ? userAgent.slice(start, end) : 'Unspecified';
}
