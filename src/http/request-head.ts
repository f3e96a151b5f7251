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

/** Whether the request declares a body (a length above zero, or chunks). */
export function hasBody(req: RequestHead): boolean {
  const contentLength = req.getHeader('content-length');
  return (contentLength !== '' && contentLength !== '0') || req.getHeader('transfer-encoding') !== '';
}

/** `ZulipPython/0.9.0 (Linux)` → `ZulipPython`; no User-Agent → `Unspecified`. */
export function clientFromUserAgent(userAgent: string): string {
  const product = userAgent.trim().split(/[\/\s]/, 1)[0];
  return product || 'Unspecified';
}
