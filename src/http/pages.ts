/**
 * Pages outside /api/v1 (the invitation join page): no credentials, limited per address, a form
 * read from the query string and the body, HTML out; their errors are pages too, never framed,
 * never cached, and the link's key never sent on as a Referer.
 */
import type { ApiError } from '../domain/errors.js';
import { escapeHtml } from '../domain/html.js';
import type { Exchange, Exchanges } from './exchange.js';
import type { RequestHead } from './request-head.js';
import type { UwsModule } from './native.js';
import { allowedMethods, answerNotServed } from './not-served.js';
import { parseBody, parseUrlEncoded, type RawParams } from './params.js';
import { METHODS, type HttpMethod, type Match } from './router.js';

/** A server-rendered page outside /api/v1 (the invitation join page): no credentials, a form in, HTML out. */
export interface PageRoute {
  method: 'GET' | 'POST';
  /** Path pattern from the root (router.ts syntax), e.g. `/join/{key}`; a trailing slash is allowed. */
  path: string;
  handler: (request: PageRequest) => PageAnswer | Promise<PageAnswer>;
}

export interface PageRequest {
  method: HttpMethod;
  /** The path's parameters. */
  params: Record<string, string | number>;
  /** Fields of the query string and of an urlencoded (or multipart) body. */
  form: Record<string, string>;
}

export interface PageAnswer {
  status: number;
  html: string;
}

/** Headers of every page: HTML, never cached, never framed, and the link's key never sent on as a Referer. */
const PAGE_HEADERS: Record<string, string> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
};

/** The page for an error the front itself answers on a page route (rate limit, body too large, a failure). */
export function errorPage(error: ApiError): [string, Record<string, string>] {
  const html = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Error</title></head><body><p>${escapeHtml(error.message)}</p></body></html>`;
  return [html, { ...error.headers, ...PAGE_HEADERS }];
}

/** What serving a page needs from the front. */
export interface PageContext {
  exchanges: Exchanges;
  uws: UwsModule;
  /** Applies the per-address rate limit (throws the refusal). */
  limitByAddress(ex: Exchange, req: RequestHead): void;
  /** Reads the body with the server's limit (see body-reader.ts). */
  readBody(ex: Exchange, contentLength: string, done: (body: Buffer) => void): void;
}

/** A page route: no credentials, limited per address; the form read from the query and the body. */
export function servePage(context: PageContext, ex: Exchange, req: RequestHead, method: string, match: Match<PageRoute>): void {
  const { exchanges } = context;
  ex.errorFormat = errorPage;
  const wanted = (method === 'HEAD' ? 'GET' : method) as HttpMethod;
  const route = METHODS.has(wanted) ? match.methods.get(wanted) : undefined;
  if (!route || method === 'OPTIONS') {
    for (const page of match.methods.values()) ex.route = page.path;
    answerNotServed(exchanges, ex, method, allowedMethods(match.methods.keys()));
    return;
  }
  ex.route = route.path;
  const contentType = req.getHeader('content-type');
  const contentLength = req.getHeader('content-length');
  const form: RawParams = {};
  parseUrlEncoded(req.getQuery() ?? '', form);
  context.limitByAddress(ex, req);
  const answer = () => answerPage(exchanges, ex, route.handler({ method: wanted, params: match.params, form }));
  if (!ex.bodyPending) {
    answer();
    return;
  }
  context.readBody(ex, contentLength, (body) => {
    parseBody(body, contentType, form, context.uws.getParts);
    answer();
  });
}

function answerPage(exchanges: Exchanges, ex: Exchange, result: PageAnswer | Promise<PageAnswer>): void {
  if (!(result instanceof Promise)) {
    exchanges.write(ex, result.status, result.html, PAGE_HEADERS);
    return;
  }
  exchanges.awaitAnswer(ex, result, (page) => exchanges.write(ex, page.status, page.html, PAGE_HEADERS));
}
