/** Public files held in memory below `/static/` (the emoji data clients fetch at start): no credentials, validators so that clients cache them. */
import type { Exchange, Exchanges } from './exchange.js';
import { answerMethodNotAllowed } from './not-served.js';

export const STATIC_PREFIX = '/static/';
/** The methods a static file answers. */
const STATIC_METHODS = ['GET', 'HEAD'];

/** A public file held in memory, served with validators so that clients cache it. */
export interface StaticResource {
  body: string;
  contentType: string;
  /** A strong validator (quoted), compared with `If-None-Match`. */
  etag: string;
  cacheControl: string;
}

/** The file, or 304 when the client's `If-None-Match` names it; 405 for methods other than GET and HEAD. */
export function serveStatic(exchanges: Exchanges, ex: Exchange, method: string, resource: StaticResource, ifNoneMatch: string): void {
  ex.route = STATIC_PREFIX;
  if (method !== 'GET' && method !== 'HEAD') return answerMethodNotAllowed(exchanges, ex, STATIC_METHODS);
  const headers = { ETag: resource.etag, 'Cache-Control': resource.cacheControl, 'Content-Type': resource.contentType };
  const fresh = ifNoneMatch !== '' && ifNoneMatch.split(',').some((tag) => tag.trim() === resource.etag || tag.trim() === '*');
  if (fresh) return exchanges.answerAfterBody(ex, 304, '', headers);
  exchanges.answerAfterBody(ex, 200, resource.body, headers);
}
