/**
 * The HTTP front on uWebSockets.js: one catch-all uWS handler that reads the request
 * synchronously, finds the route, authenticates, applies rate limits, reads and parses the
 * body, validates parameters against the endpoint's schema, calls the handler and writes the
 * envelope. `onRequest` is the one place that guarantees the uWS rule (STACK-NOTES #1): when
 * the callback returns, the request was either answered or has `onAborted` registered, whatever
 * the route or handler did. Later writes go through `res.cork` (#7). What uWS 20.30 refuses
 * before JavaScript sees a request is listed in docs/http-robustness.md.
 */
import type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from '@trufflesuite/uws-js-unofficial';
import type { Logger } from 'pino';
import { ApiError } from '../domain/errors.js';
import { escapeHtml } from '../domain/html.js';
import { errorBody, internalError, statusLine, successBody } from './envelope.js';
import type { UwsModule } from './native.js';
import { parseBody, parseUrlEncoded, type RawParams, type UploadedFile } from './params.js';
import { rateLimitHit, type RateDecision, type RateLimiter } from './rate-limit.js';
import { Deferred, type DeferredWriter, type HandlerResult, RawAnswer, RawJson } from '../shared/handler-result.js';
import { Router, type HttpMethod, type Match } from './router.js';
import type { ParamValidator } from './validation.js';
import type { WebAnswer, WebRequestHeaders } from './web-assets.js';

const API_PREFIX = '/api/v1';
const METHODS = new Set<HttpMethod>(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
/**
 * A request refused before its body was read is answered only once the body has arrived (up to
 * this many more bytes): uWS 20.30 closes a connection whose request body is still arriving after
 * the answer, and the client, still sending, then sees a reset instead of the answer.
 */
const DRAIN_LIMIT_BYTES = 16 * 1024 * 1024;
/** Route label for the observer when no route matched the path. */
const UNMATCHED = 'unmatched';

/** `pause`/`resume` exist at run time in 20.30 but are missing from its typings. */
interface Pausable {
  pause(): void;
  resume(): void;
}

export interface ApiRequest<P, Params = Record<string, unknown>> {
  readonly method: HttpMethod;
  readonly path: string;
  /** Validated parameters, path parameters included. */
  readonly params: Params;
  /** The authenticated user or bot; always set on routes with `auth: 'user'`. */
  readonly principal: P | undefined;
  readonly userAgent: string;
  /** The client's name (Zulip's `client`): the `client` parameter, else the User-Agent's product name. */
  readonly client: string;
  /** Files sent as multipart parts with a file name (routes with `files: true`; empty otherwise). */
  readonly files: readonly UploadedFile[];
  /** The request's `Range` header ('' when none). */
  readonly range: string;
  /** Binds a response that the handler will finish later (long-polls). */
  defer(): Deferred;
}

/** A route's own body limit and the refusal to answer when a body exceeds it. */
export interface BodyLimit {
  bytes: number;
  refusal: ApiError;
}

export interface Route<P> {
  method: HttpMethod;
  /** Path pattern below /api/v1 (see router.ts for parameter syntax). */
  path: string;
  /** The `$id` of the endpoint's schema (src/schemas/). */
  schema: string;
  /** `user`: credentials required; `none`: no credentials; `optional`: either (public access). */
  auth: 'user' | 'none' | 'optional';
  /** Multipart parts with a file name arrive in `files`, not as parameters. */
  files?: boolean;
  /** Replaces the server's body limit for this route (read per request: it may follow a setting). */
  bodyLimit?: () => BodyLimit;
  handler: (request: ApiRequest<P>) => HandlerResult | Promise<HandlerResult>;
}

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

/** A route as served: its pattern as the router holds it, the schema's name and the authentication. */
export interface ServedRoute {
  method: HttpMethod;
  path: string;
  schema: string;
  auth: Route<unknown>['auth'];
  /** A root route: `path` is from the server's root, not below /api/v1 (uploaded files). */
  root: boolean;
}

export interface FrontOptions<P> {
  uws: UwsModule;
  routes: Route<P>[];
  /** Routes outside /api/v1, their paths from the root (`/user_uploads/...`): served alike, listed by `served()` with `root`. */
  rootRoutes?: Route<P>[];
  validators: Map<string, ParamValidator>;
  bodyLimitBytes: number;
  /** Resolves Basic credentials to a principal or throws the ApiError to answer. */
  authenticate: (authorization: string) => P;
  rateLimits?: { perUser: RateLimiter; perIp: RateLimiter; keyOf: (principal: P) => string };
  logger: Logger;
  /**
   * Told once per answered request (not for clients that left first): the method as sent, the
   * route's path pattern (or 'unmatched'), the status and the seconds since the request arrived.
   */
  observe?: (method: string, route: string, status: number, seconds: number) => void;
  /** Answers `GET /health` (outside /api/v1, no credentials) while the server accepts requests. */
  health?: () => HealthAnswer;
  /** Files served without credentials below `/static/` (the emoji data clients fetch at start). */
  staticResource?: (path: string) => StaticResource | undefined;
  /** Pages outside /api/v1; their errors are answered as HTML. */
  pages?: PageRoute[];
  /** The web client's files and pages (web-assets.ts), asked for GETs nothing else serves. */
  webAsset?: (path: string, headers: WebRequestHeaders) => WebAnswer | undefined;
}

/** A public file held in memory, served with validators so that clients cache it. */
export interface StaticResource {
  body: string;
  contentType: string;
  /** A strong validator (quoted), compared with `If-None-Match`. */
  etag: string;
  cacheControl: string;
}

export interface HealthAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** Non-API path of the health check, as load balancers and orchestrators expect one. */
const HEALTH_PATH = '/health';
const STATIC_PREFIX = '/static/';
/** The files of a request to a route that takes none (never written to: parseBody gets no list then). */
const NO_FILES: UploadedFile[] = [];

interface Compiled<P> {
  route: Route<P>;
  validator: ParamValidator;
}

/** Per-request state that must survive the uWS callback. */
interface Exchange {
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
  /** Socket reading paused while an asynchronous handler runs (see `run`). */
  paused: boolean;
  rate: RateDecision | undefined;
  deferred: Deferred | undefined;
  /** Unknown parameters, kept for a deferred answer. */
  ignored?: readonly string[];
  /** A page request: errors are answered as HTML, not in the API's envelope. */
  page: boolean;
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
function errorPage(error: ApiError): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Error</title></head><body><p>${escapeHtml(error.message)}</p></body></html>`;
}

export class HttpFront<P> implements DeferredWriter {
  private readonly app: TemplatedApp;
  private readonly router = new Router<Compiled<P>>();
  private readonly pages = new Router<PageRoute>();
  private readonly rootRouter = new Router<Compiled<P>>();
  private listenSocket: us_listen_socket | undefined;
  private inFlight = 0;
  private idleWaiters: (() => void)[] = [];
  private accepting = true;

  constructor(private readonly options: FrontOptions<P>) {
    const add = (router: Router<Compiled<P>>, routes: readonly Route<P>[]) => {
      for (const route of routes) {
        const validator = options.validators.get(route.schema);
        if (!validator) throw new Error(`route ${route.method} ${route.path}: no schema '${route.schema}'`);
        router.add(route.method, route.path, { route, validator });
      }
    };
    add(this.router, options.routes);
    add(this.rootRouter, options.rootRoutes ?? []);
    for (const page of options.pages ?? []) this.pages.add(page.method, page.path, page);
    this.app = options.uws.App();
    this.app.any('/*', (res, req) => this.onRequest(res, req));
  }

  listen(host: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.app.listen(host, port, (socket) => {
        if (!socket) return reject(new Error(`cannot listen on ${host}:${port}`));
        this.listenSocket = socket;
        resolve(this.options.uws.us_socket_local_port(socket));
      });
    });
  }

  /** Every route this front serves, as its router holds them. */
  served(): ServedRoute[] {
    const list = (router: Router<Compiled<P>>, root: boolean) =>
      [...router.routes()].map(({ method, pattern, route: { route } }) => ({ method, path: pattern, schema: route.schema, auth: route.auth, root }));
    return [...list(this.router, false), ...list(this.rootRouter, true)];
  }

  /** Stops accepting connections; requests in flight continue. */
  stopAccepting(): void {
    this.accepting = false;
    if (this.listenSocket) this.options.uws.us_listen_socket_close(this.listenSocket);
    this.listenSocket = undefined;
  }

  /** Resolves when no request is being processed (parked long-polls excluded). */
  idle(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Force-closes every remaining connection (aborts parked responses). */
  closeConnections(): void {
    (this.app as unknown as { close?: () => void }).close?.();
  }

  /**
   * The uWS callback. Whatever `route` and the handler do (answer, throw, return a promise or
   * nothing), when this returns the request is answered or has `onAborted` registered: uWS
   * aborts the whole process otherwise.
   */
  private onRequest(res: HttpResponse, req: HttpRequest): void {
    const method = req.getMethod().toUpperCase();
    const url = req.getUrl();
    const ex: Exchange = {
      res, aborted: false, head: method === 'HEAD', started: 0, tracked: false, method, url,
      route: UNMATCHED, bodyPending: false, paused: false, rate: undefined, deferred: undefined, page: false,
    };
    if (this.options.observe || this.options.logger.isLevelEnabled('info')) ex.started = performance.now();
    try {
      this.route(ex, req, method, url);
    } catch (error) {
      this.refuse(ex, error);
    }
    if (!ex.aborted && !ex.tracked) this.track(ex);
  }

  private route(ex: Exchange, req: HttpRequest, method: string, url: string): void {
    const contentLength = req.getHeader('content-length');
    const transferEncoding = req.getHeader('transfer-encoding');
    ex.bodyPending = (contentLength !== '' && contentLength !== '0') || transferEncoding !== '';
    if (url === HEALTH_PATH && this.options.health) {
      this.health(ex, method, this.options.health);
      return;
    }
    const resource = url.startsWith(STATIC_PREFIX) ? this.options.staticResource?.(url) : undefined;
    if (resource) {
      this.serveStatic(ex, method, resource, req.getHeader('if-none-match'));
      return;
    }
    if (!this.accepting) throw new ApiError('BAD_REQUEST', 'Server is shutting down', 503);
    const inApi = url.startsWith(API_PREFIX + '/');
    const path = inApi ? url.slice(API_PREFIX.length) : url;
    const page = inApi ? undefined : this.pages.match(url);
    if (page) {
      this.page(ex, req, method, page);
      return;
    }
    const match = inApi ? this.router.match(path) : this.rootRouter.match(path);
    if (!match && !inApi && (method === 'GET' || method === 'HEAD') && this.options.webAsset) {
      const headers = { accept: req.getHeader('accept'), acceptEncoding: req.getHeader('accept-encoding'), ifNoneMatch: req.getHeader('if-none-match') };
      const asset = this.options.webAsset(url, headers);
      if (asset) return this.answerAfterBody(ex, asset.status, asset.body, asset.headers);
    }
    if (!match) throw new ApiError('NOT_FOUND', 'Not Found', 404);
    const wanted = (method === 'HEAD' ? 'GET' : method) as HttpMethod;
    const compiled = METHODS.has(wanted) ? match.methods.get(wanted) : undefined;
    if (!compiled || method === 'OPTIONS') {
      this.notServed(ex, method, match.methods, (route) => route.route.path);
      return;
    }
    ex.route = compiled.route.path;

    // Everything needed from `req` is read now: it is invalid once this callback returns.
    const authorization = req.getHeader('authorization');
    const contentType = req.getHeader('content-type');
    const userAgent = req.getHeader('user-agent');
    // Only the file routes (outside /api/v1) answer ranges: API requests skip the native call.
    const range = inApi ? '' : req.getHeader('range');
    const raw: RawParams = {};
    parseUrlEncoded(req.getQuery() ?? '', raw);

    const principal = this.authenticate(ex, compiled.route, authorization);

    // Parsed into only for routes that take files; the others share one empty list.
    const files: UploadedFile[] = compiled.route.files ? [] : NO_FILES;
    const fromRequest = { userAgent, range, files };
    if (!ex.bodyPending) {
      this.run(ex, compiled, wanted, path, match.params, raw, principal, fromRequest);
      return;
    }
    this.readBody(ex, contentLength, compiled.route.bodyLimit?.(), (body) => {
      parseBody(body, contentType, raw, this.options.uws.getParts, compiled.route.files ? files : undefined);
      this.run(ex, compiled, wanted, path, match.params, raw, principal, fromRequest);
    });
  }

  /**
   * Reads the request's body (up to the limit: the route's own, else the server's), then calls
   * `done` with it; whatever `done` throws is answered as the error. Registers the abort handler first.
   */
  private readBody(ex: Exchange, contentLength: string, own: BodyLimit | undefined, done: (body: Buffer) => void): void {
    const limit = own?.bytes ?? this.options.bodyLimitBytes;
    const refusal = () => own?.refusal ?? tooLarge(limit);
    // Refused on the declared length, before a byte of the body is read.
    if (contentLength !== '' && Number(contentLength) > limit) {
      // A route's own limit (an upload) may be far below what a client declares: rather than
      // drain such a body, answer now and close (a client waiting for the answer reads it).
      if (own && Number(contentLength) > limit + DRAIN_LIMIT_BYTES) {
        ex.bodyPending = false;
        this.fail(ex, refusal(), true);
        return;
      }
      throw refusal();
    }
    ex.bodyPending = false;
    this.track(ex);
    const chunks: Buffer[] = [];
    let size = 0;
    ex.res.onData((chunk, isLast) => {
      if (ex.aborted) return;
      size += chunk.byteLength;
      if (size > limit) {
        // Refused, but answered once the client has stopped sending (see DRAIN_LIMIT_BYTES).
        chunks.length = 0;
        if (isLast || size > limit + DRAIN_LIMIT_BYTES) this.fail(ex, refusal(), true);
        return;
      }
      chunks.push(Buffer.from(chunk.slice(0)));
      if (!isLast) return;
      try {
        const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
        chunks.length = 0;
        done(body);
      } catch (error) {
        this.fail(ex, error);
      }
    });
  }

  /** A page route: no credentials, limited per address; the form read from the query and the body. */
  private page(ex: Exchange, req: HttpRequest, method: string, match: Match<PageRoute>): void {
    ex.page = true;
    const wanted = (method === 'HEAD' ? 'GET' : method) as HttpMethod;
    const route = METHODS.has(wanted) ? match.methods.get(wanted) : undefined;
    if (!route || method === 'OPTIONS') {
      this.notServed(ex, method, match.methods, (page) => page.path);
      return;
    }
    ex.route = route.path;
    const contentType = req.getHeader('content-type');
    const contentLength = req.getHeader('content-length');
    const form: RawParams = {};
    parseUrlEncoded(req.getQuery() ?? '', form);
    const limits = this.options.rateLimits;
    if (limits) this.applyRateLimit(ex, limits.perIp, Buffer.from(ex.res.getRemoteAddressAsText()).toString());
    const answer = () => this.answerPage(ex, route.handler({ method: wanted, params: match.params, form }));
    if (!ex.bodyPending) {
      answer();
      return;
    }
    this.readBody(ex, contentLength, undefined, (body) => {
      parseBody(body, contentType, form, this.options.uws.getParts);
      answer();
    });
  }

  private answerPage(ex: Exchange, result: PageAnswer | Promise<PageAnswer>): void {
    if (!(result instanceof Promise)) {
      this.write(ex, result.status, result.html, PAGE_HEADERS);
      return;
    }
    this.track(ex);
    (ex.res as unknown as Pausable).pause();
    ex.paused = true;
    result.then(
      (page) => this.write(ex, page.status, page.html, PAGE_HEADERS),
      (error) => this.fail(ex, error),
    );
  }

  /** OPTIONS, and methods the path does not serve: both list the methods it does. */
  private notServed<R>(ex: Exchange, method: string, methods: ReadonlyMap<HttpMethod, R>, pattern: (route: R) => string): void {
    // As Zulip: a path served by GET is also served for HEAD, and says so.
    const allowed: string[] = [];
    for (const [name, route] of methods) {
      allowed.push(name);
      ex.route = pattern(route);
    }
    allowed.sort();
    if (methods.has('GET')) allowed.push('HEAD');
    if (method === 'OPTIONS') {
      this.answerAfterBody(ex, 204, '', { Allow: [...allowed].sort().join(', ') });
      return;
    }
    // Zulip's json_method_not_allowed: no `code`, the methods listed.
    const body = JSON.stringify({ result: 'error', msg: 'Method Not Allowed', allowed_methods: allowed });
    this.answerAfterBody(ex, 405, body, { Allow: allowed.join(', ') });
  }

  /** Answers an error, after the request's unread body if it has one (see DRAIN_LIMIT_BYTES). */
  private refuse(ex: Exchange, error: unknown): void {
    if (ex.aborted) return;
    if (!ex.bodyPending) {
      this.fail(ex, error);
      return;
    }
    const apiError = this.asApiError(ex, error);
    const [body, headers] = this.errorAnswer(ex, apiError);
    this.answerAfterBody(ex, apiError.status, body, headers);
  }

  /** An error's body and headers: the API's envelope, or a page for page routes. */
  private errorAnswer(ex: Exchange, error: ApiError): [string, Record<string, string>] {
    if (ex.page) return [errorPage(error), { ...error.headers, ...PAGE_HEADERS }];
    return [errorBody(error), error.headers];
  }

  private answerAfterBody(ex: Exchange, status: number, body: string | Buffer, headers: Record<string, string>): void {
    if (!ex.bodyPending) {
      this.write(ex, status, body, headers);
      return;
    }
    ex.bodyPending = false;
    this.track(ex);
    let drained = 0;
    ex.res.onData((chunk, isLast) => {
      if (ex.aborted) return;
      drained += chunk.byteLength;
      if (isLast || drained > DRAIN_LIMIT_BYTES) this.write(ex, status, body, headers, true);
    });
  }

  private health(ex: Exchange, method: string, check: () => HealthAnswer): void {
    ex.route = HEALTH_PATH;
    if (method === 'OPTIONS') return this.answerAfterBody(ex, 204, '', { Allow: 'GET, HEAD' });
    if (method !== 'GET' && method !== 'HEAD') {
      const body = JSON.stringify({ result: 'error', msg: 'Method Not Allowed', allowed_methods: ['GET', 'HEAD'] });
      return this.answerAfterBody(ex, 405, body, { Allow: 'GET, HEAD' });
    }
    const answer = this.accepting
      ? check()
      : { status: 503, body: { result: 'error', code: 'BAD_REQUEST', msg: 'Server is shutting down', status: 'stopping' } };
    this.answerAfterBody(ex, answer.status, JSON.stringify(answer.body), { 'Cache-Control': 'no-store' });
  }

  private serveStatic(ex: Exchange, method: string, resource: StaticResource, ifNoneMatch: string): void {
    ex.route = STATIC_PREFIX;
    if (method !== 'GET' && method !== 'HEAD') {
      const body = JSON.stringify({ result: 'error', msg: 'Method Not Allowed', allowed_methods: ['GET', 'HEAD'] });
      return this.answerAfterBody(ex, 405, body, { Allow: 'GET, HEAD' });
    }
    const headers = { ETag: resource.etag, 'Cache-Control': resource.cacheControl, 'Content-Type': resource.contentType };
    const fresh = ifNoneMatch !== '' && ifNoneMatch.split(',').some((tag) => tag.trim() === resource.etag || tag.trim() === '*');
    if (fresh) return this.answerAfterBody(ex, 304, '', headers);
    this.answerAfterBody(ex, 200, resource.body, headers);
  }

  private authenticate(ex: Exchange, route: Route<P>, authorization: string): P | undefined {
    const limits = this.options.rateLimits;
    if (route.auth === 'none' || (route.auth === 'optional' && authorization === '')) {
      if (limits) this.applyRateLimit(ex, limits.perIp, Buffer.from(ex.res.getRemoteAddressAsText()).toString());
      return undefined;
    }
    const principal = this.options.authenticate(authorization);
    if (limits) this.applyRateLimit(ex, limits.perUser, limits.keyOf(principal));
    return principal;
  }

  private applyRateLimit(ex: Exchange, limiter: RateLimiter, key: string): void {
    const decision = limiter.hit(key);
    ex.rate = decision;
    if (!decision.allowed) throw rateLimitHit(decision.retryAfter);
  }

  private run(
    ex: Exchange,
    compiled: Compiled<P>,
    method: HttpMethod,
    path: string,
    pathParams: Record<string, string | number>,
    raw: RawParams,
    principal: P | undefined,
    { userAgent, range, files }: { userAgent: string; range: string; files: UploadedFile[] },
  ): void {
    // `client` is read for every request, as Zulip's middleware does, so it is never "ignored".
    const client = raw.client ?? clientFromUserAgent(userAgent);
    delete raw.client;
    const { params, ignored } = compiled.validator.validate(raw);
    for (const name in pathParams) params[name] = pathParams[name];
    const request: ApiRequest<P> = {
      method,
      path,
      params,
      principal,
      userAgent,
      client,
      files,
      range,
      defer: () => {
        const deferred = new Deferred();
        ex.deferred = deferred;
        return deferred;
      },
    };
    const result = compiled.route.handler(request);
    if (result instanceof Promise) {
      this.track(ex);
      // Stop reading the connection meanwhile: uWS 20.30 closes a connection on which a request
      // arrives while the previous answer is pending (pipelining). Resumed before the answer.
      (ex.res as unknown as Pausable).pause();
      ex.paused = true;
      result.then(
        (value) => this.deliverOrFail(ex, value, ignored),
        (error) => this.fail(ex, error),
      );
    } else {
      this.deliver(ex, result, ignored);
    }
  }

  /** After an await nobody catches for us: an answer that cannot be serialised still gets a 500. */
  private deliverOrFail(ex: Exchange, result: HandlerResult, ignored: readonly string[]): void {
    try {
      this.deliver(ex, result, ignored);
    } catch (error) {
      this.fail(ex, error);
    }
  }

  private deliver(ex: Exchange, result: HandlerResult, ignored: readonly string[]): void {
    if (result instanceof Deferred) {
      this.track(ex);
      // A parked poll keeps reading, so that a client leaving is noticed (onAborted).
      this.resume(ex);
      ex.ignored = ignored;
      result.writer = this;
      result.exchange = ex;
      return;
    }
    if (result instanceof RawAnswer) {
      this.writeRaw(ex, result);
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
      this.write(ex, 200, successBody(outcome as Record<string, unknown> | RawJson, ex.ignored ?? []));
    } catch (error) {
      this.fail(ex, error);
    }
  }

  /** Registers abort handling once, before any asynchronous work, and counts the request as in flight. */
  private track(ex: Exchange): void {
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

  private resume(ex: Exchange): void {
    if (!ex.paused) return;
    ex.paused = false;
    (ex.res as unknown as Pausable).resume();
  }

  private asApiError(ex: Exchange, error: unknown): ApiError {
    if (error instanceof ApiError) return error;
    this.options.logger.error({ err: error, method: ex.method, url: ex.url }, 'unexpected error');
    return internalError();
  }

  private fail(ex: Exchange, error: unknown, close = false): void {
    if (ex.aborted) return;
    const apiError = this.asApiError(ex, error);
    const [body, headers] = this.errorAnswer(ex, apiError);
    this.write(ex, apiError.status, body, headers, close);
  }

  /** A file or page: its own status and headers (Content-Type among them), the body as is. */
  private writeRaw(ex: Exchange, answer: RawAnswer): void {
    this.write(ex, answer.status, answer.body, answer.headers, false, null);
  }

  private write(
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
      res.cork(() => {
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
        if (contentType !== null && !headers?.['Content-Type']) res.writeHeader('Content-Type', contentType);
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
      });
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
    const observe = this.options.observe;
    if (observe) observe(ex.method, ex.route, status, (performance.now() - ex.started) / 1000);
    const logger = this.options.logger;
    if (logger.isLevelEnabled('info')) {
      const ms = performance.now() - ex.started;
      logger.info({ method: ex.method, url: ex.url, status, ms: Math.round(ms * 10) / 10 }, 'request');
    }
  }
}

/** `ZulipPython/0.9.0 (Linux)` → `ZulipPython`; no User-Agent → `Unspecified`. */
export function clientFromUserAgent(userAgent: string): string {
  const product = userAgent.trim().split(/[\/\s]/, 1)[0];
  return product || 'Unspecified';
}

function tooLarge(limit: number): ApiError {
  return new ApiError('BAD_REQUEST', `Request body too large (limit: ${limit} bytes)`, 413);
}

