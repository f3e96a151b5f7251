/**
 * The HTTP front on uWebSockets.js: its options and the dispatch. One catch-all uWS handler finds
 * the request's site (its organization, by the Host header: site.ts; a request whose organization
 * is loading is held: request-head.ts), reads the request synchronously, finds the route,
 * authenticates, applies rate limits, has the body read and parsed, validates parameters against
 * the endpoint's schema and calls the handler. `onRequest` is the one place that guarantees the
 * uWS rule (STACK-NOTES #1): when the callback returns, the request was either answered or has
 * `onAborted` registered, whatever the route or handler did. The pieces: contract.ts (routes and
 * requests), exchange.ts (answering once), body-reader.ts, not-served.ts (405 and OPTIONS),
 * pages.ts, static-files.ts. What uWS 20.30 refuses before JavaScript sees a request is listed
 * in docs/http-robustness.md.
 */
import type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from '@trufflesuite/uws-js-unofficial';
import { clientFromUserAgent, copyHead, hasBody, HeldBody, isJson, readRaw, type RequestHead } from './request-head.js';
import type { ApiRequest, RawRequest, Route } from './contract.js';
import { Site, type Compiled, type HealthAnswer, type ServedRoute, type SiteOptions } from './site.js';
import type { Logger } from 'pino';
import { ApiError } from '../domain/errors.js';
import { readBody, type BodyLimit } from './body-reader.js';
import { Exchanges, type Exchange } from './exchange.js';
import type { UwsModule } from './native.js';
import { allowedMethods, answerNotServed } from './not-served.js';
import { errorPage, servePage, type PageContext, type PageRoute } from './pages.js';
import { parseApiQuery, parseBody, parseUrlEncoded, type RawParams, type UploadedFile } from './params.js';
import { rateLimitHit, type RateLimiter } from './rate-limit.js';
import { Deferred, type HandlerResult } from '../shared/handler-result.js';
import { METHODS, type HttpMethod } from './router.js';
import { serveStatic, STATIC_PREFIX, type StaticResource } from './static-files.js';
import type { ParamValidator } from './validation.js';
import type { WebAnswer, WebRequestHeaders } from './web-assets.js';

export type { BodyLimit } from './body-reader.js';
export type { PageAnswer, PageRequest, PageRoute } from './pages.js';
export type { StaticResource } from './static-files.js';
export { Site, type HealthAnswer, type ServedRoute, type SiteOptions } from './site.js';
export type { ApiRequest, RawRequest, Route } from './contract.js';
export { clientFromUserAgent } from './request-head.js';

const API_PREFIX = '/api/v1';
/** uSockets' LIBUS_LISTEN_EXCLUSIVE_PORT (missing from the 20.30 typings): bind without SO_REUSEPORT. */
const LISTEN_EXCLUSIVE_PORT = 1;

/**
 * The front's settings. One site (`routes`, `authenticate`, `pages`, `health`: see SiteOptions)
 * serves every host; or `site` finds each request's site by its Host header: a site, a promise
 * of one while its organization loads, or undefined for a host that names no organization.
 */
export interface FrontOptions<P> extends Partial<SiteOptions<P>> {
  uws: UwsModule;
  site?: (host: string) => Site<P> | Promise<Site<P> | undefined> | undefined;
  validators: Map<string, ParamValidator>;
  bodyLimitBytes: number;
  rateLimits?: { perUser: RateLimiter; perIp: RateLimiter; keyOf: (principal: P) => string };
  logger: Logger;
  /**
   * Told once per answered request (not for clients that left first): the method as sent, the
   * route's path pattern (or 'unmatched'), the status and the seconds since the request arrived.
   */
  observe?: (method: string, route: string, status: number, seconds: number) => void;
  /** Files served without credentials below `/static/` (the emoji data clients fetch at start). */
  staticResource?: (path: string) => StaticResource | undefined;
  /** The web client's files and pages (web-assets.ts), asked for GETs nothing else serves. */
  webAsset?: (path: string, headers: WebRequestHeaders) => WebAnswer | undefined;
  /** The client's address for per-address limits, from the peer's and X-Forwarded-For (see domain/ip-ranges). */
  clientAddress?: (peer: string, forwardedFor: string) => string;
}

/** The port is taken (by another process, or another server of this one). */
export class PortUnavailable extends Error {}

/**
 * The request's method in capitals, as the one shared string for the common methods: each
 * exchange holds it, and a parked poll would otherwise keep a copy of its own (24 bytes).
 */
function canonicalMethod(lower: string): string {
  switch (lower) {
    case 'get': return 'GET';
    case 'post': return 'POST';
    case 'patch': return 'PATCH';
    case 'delete': return 'DELETE';
    case 'put': return 'PUT';
    case 'head': return 'HEAD';
    case 'options': return 'OPTIONS';
    default: return lower.toUpperCase();
  }
}

/** Non-API path of the health check, as load balancers and orchestrators expect one. */
const HEALTH_PATH = '/health';
/** The files of a request to a route that takes none (never written to: parseBody gets no list then). */
const NO_FILES: UploadedFile[] = [];

/** Paths the front answers itself, outside the URL table's views (`npm run routes` lists them). */
export const FRONT_PATHS: readonly { method: HttpMethod; path: string; view: string }[] = [
  { method: 'GET', path: HEALTH_PATH, view: 'health' },
  { method: 'GET', path: STATIC_PREFIX + '{file:path}', view: 'staticResource' },
];

/** Zulip's InvalidSubdomainError: the Host names no organization of this server. */
const invalidSubdomain = () => new ApiError('NONEXISTENT_SUBDOMAIN', 'Invalid subdomain', 404);
/** Zulip's page for a host without an organization (zerver/invalid_realm.html), for what is not the API. */
const noOrganizationPage = () => new ApiError('NONEXISTENT_SUBDOMAIN', 'There is no organization at this address.', 404);
const NO_CREDENTIALS = (): never => {
  throw new ApiError('UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
};

export class HttpFront<P> {
  private readonly app: TemplatedApp;
  /** The site of a front that serves one site for every host (no `site` option). */
  private readonly single: Site<P> | undefined;
  private readonly siteOf: (host: string) => Site<P> | Promise<Site<P> | undefined> | undefined;
  private readonly exchanges: Exchanges;
  private readonly pageContext: PageContext;
  private listenSocket: us_listen_socket | undefined;
  private accepting = true;
  private draining = false;

  constructor(private readonly options: FrontOptions<P>) {
    if (options.site) {
      this.siteOf = options.site;
    } else {
      const { routes = [], rootRoutes, pages, authenticate = NO_CREDENTIALS, health } = options;
      const single = new Site<P>({ routes, rootRoutes, pages, authenticate, health }, options.validators);
      this.single = single;
      this.siteOf = () => single;
    }
    this.exchanges = new Exchanges({ logger: options.logger, observe: options.observe });
    this.pageContext = {
      exchanges: this.exchanges,
      uws: options.uws,
      limitByAddress: (ex, req) => this.limitByAddress(ex, req),
      readBody: (ex, contentLength, done) => readBody(this.exchanges, ex, contentLength, undefined, options.bodyLimitBytes, done),
    };
    this.app = options.uws.App();
    this.app.any('/*', (res, req) => this.onRequest(res, req));
  }

  listen(host: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      // Exclusive: uWS binds with SO_REUSEPORT otherwise, and a second server on the port would share its traffic.
      const listen = this.app.listen as unknown as (host: string, port: number, options: number, cb: (socket: us_listen_socket | false) => void) => void;
      listen.call(this.app, host, port, LISTEN_EXCLUSIVE_PORT, (socket) => {
        if (!socket) return reject(new PortUnavailable(`cannot listen on ${host}:${port}`));
        this.listenSocket = socket;
        resolve(this.options.uws.us_socket_local_port(socket));
      });
    });
  }

  /** Every route a front of one site serves, as its routers hold them (see Site.served for the others). */
  served(): ServedRoute[] {
    return this.single?.served() ?? [];
  }

  /** Starts the drain before a stop: `/health` answers 503 "stopping" while requests are still served. */
  drain(): void {
    this.draining = true;
  }

  /** Stops accepting connections; requests in flight continue. */
  stopAccepting(): void {
    this.accepting = false;
    if (this.listenSocket) this.options.uws.us_listen_socket_close(this.listenSocket);
    this.listenSocket = undefined;
  }

  /** Resolves when no request is being processed (parked long-polls excluded). */
  idle(): Promise<void> {
    return this.exchanges.idle();
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
    const method = canonicalMethod(req.getMethod());
    const url = req.getUrl();
    const ex = this.exchanges.open(res, method, url);
    // uWS corks the socket of the request in its callback: an answer written now needs no cork of its own.
    this.exchanges.corked = ex;
    try {
      const site = this.siteOf(req.getHeader('host'));
      if (site instanceof Promise) this.hold(ex, req, method, url, site);
      else this.route(ex, site, req, method, url);
    } catch (error) {
      this.exchanges.refuse(ex, error);
    }
    this.exchanges.corked = undefined;
    if (!ex.aborted && !ex.tracked) this.exchanges.track(ex);
  }

  /**
   * A request whose organization is loading: its head is copied, its body kept as it comes,
   * the connection paused; once the site is there it is routed as any other.
   */
  private hold(ex: Exchange, req: HttpRequest, method: string, url: string, loading: Promise<Site<P> | undefined>): void {
    const head = copyHead(req);
    this.exchanges.track(ex);
    if (hasBody(head)) ex.held = new HeldBody(ex.res);
    this.exchanges.pause(ex);
    loading.then(
      (site) => {
        if (ex.aborted) return;
        this.exchanges.resume(ex);
        try {
          this.route(ex, site, head, method, url);
        } catch (error) {
          this.exchanges.refuse(ex, error);
        }
      },
      (error: unknown) => this.exchanges.refuse(ex, error),
    );
  }

  private route(ex: Exchange, site: Site<P> | undefined, req: RequestHead, method: string, url: string): void {
    const contentLength = req.getHeader('content-length');
    ex.bodyPending = hasBody(req, contentLength);
    const health = site?.options.health;
    if (url === HEALTH_PATH && health) {
      this.health(ex, method, health);
      return;
    }
    const resource = url.startsWith(STATIC_PREFIX) ? this.options.staticResource?.(url) : undefined;
    if (resource) {
      serveStatic(this.exchanges, ex, method, resource, req.getHeader('if-none-match'));
      return;
    }
    if (!this.accepting) throw new ApiError('BAD_REQUEST', 'Server is shutting down', 503);
    const inApi = url.startsWith(API_PREFIX + '/');
    if (!site) {
      if (inApi) throw invalidSubdomain();
      ex.errorFormat = errorPage;
      throw noOrganizationPage();
    }
    const path = inApi ? url.slice(API_PREFIX.length) : url;
    const page = inApi ? undefined : site.pages.match(url);
    if (page) {
      servePage(this.pageContext, ex, req, method, page);
      return;
    }
    const match = inApi ? site.router.match(path) : site.rootRouter.match(path);
    if (!match && !inApi && (method === 'GET' || method === 'HEAD') && this.options.webAsset) {
      const headers = { accept: req.getHeader('accept'), acceptEncoding: req.getHeader('accept-encoding'), ifNoneMatch: req.getHeader('if-none-match') };
      const asset = this.options.webAsset(url, headers);
      if (asset) return this.exchanges.answerAfterBody(ex, asset.status, asset.body, asset.headers);
    }
    if (!match) throw new ApiError('NOT_FOUND', 'Not Found', 404);
    const wanted = (method === 'HEAD' ? 'GET' : method) as HttpMethod;
    const compiled = METHODS.has(wanted) ? match.methods.get(wanted) : undefined;
    if (!compiled || method === 'OPTIONS') {
      for (const served of match.methods.values()) ex.route = served.route.path;
      answerNotServed(this.exchanges, ex, method, allowedMethods(match.methods.keys()));
      return;
    }
    ex.route = compiled.route.path;

    // Everything needed from `req` is read now: it is invalid once this callback returns.
    const authorization = req.getHeader('authorization');
    const contentType = ex.bodyPending ? req.getHeader('content-type') : '';
    const userAgent = req.getHeader('user-agent');
    // Only the file routes (outside /api/v1) answer ranges: API requests skip the native call.
    const range = inApi ? '' : req.getHeader('range');
    const raw: RawParams = {};
    (inApi ? parseApiQuery : parseUrlEncoded)(req.getQuery() ?? '', raw);

    const principal = this.authenticate(ex, site, compiled.route, authorization, req);

    // Parsed into only for routes that take files; the others share one empty list.
    const files: UploadedFile[] = compiled.route.files ? [] : NO_FILES;
    const rawRequest = compiled.route.raw ? readRaw(req) : undefined;
    const fromRequest = { userAgent, range, files, raw: rawRequest };
    if (!ex.bodyPending) {
      this.run(ex, compiled, wanted, path, match.params, raw, principal, fromRequest);
      return;
    }
    readBody(this.exchanges, ex, contentLength, compiled.route.bodyLimit?.(), this.options.bodyLimitBytes, (body) => {
      if (rawRequest && isJson(contentType)) rawRequest.json = body.toString('utf8');
      else parseBody(body, contentType, raw, this.options.uws.getParts, compiled.route.files ? files : undefined);
      this.run(ex, compiled, wanted, path, match.params, raw, principal, fromRequest);
    });
  }

  private health(ex: Exchange, method: string, check: () => HealthAnswer): void {
    ex.route = HEALTH_PATH;
    if (method !== 'GET' && method !== 'HEAD') return answerNotServed(this.exchanges, ex, method, allowedMethods(['GET']));
    const answer = this.accepting && !this.draining
      ? check()
      : { status: 503, body: { result: 'error', code: 'BAD_REQUEST', msg: 'Server is shutting down', status: 'stopping' } };
    this.exchanges.answerAfterBody(ex, answer.status, JSON.stringify(answer.body), { 'Cache-Control': 'no-store' });
  }

  private authenticate(ex: Exchange, site: Site<P>, route: Route<P>, authorization: string, req: RequestHead): P | undefined {
    const limits = this.options.rateLimits;
    if (route.auth === 'none' || (route.auth === 'optional' && authorization === '')) {
      this.limitByAddress(ex, req);
      return undefined;
    }
    const principal = site.options.authenticate(authorization, { incomingWebhookBots: route.incomingWebhookBots === true });
    if (limits) this.applyRateLimit(ex, limits.perUser, (site.options.rateKeyPrefix ?? '') + limits.keyOf(principal));
    return principal;
  }

  /** Counts the request against its client's address (read now: `req` is invalid once the uWS callback returns). */
  private limitByAddress(ex: Exchange, req: RequestHead): void {
    const limits = this.options.rateLimits;
    if (limits) this.applyRateLimit(ex, limits.perIp, this.addressOf(ex, req));
  }

  /** The client's address: the peer's, or the one trusted proxies name in X-Forwarded-For. */
  private addressOf(ex: Exchange, req: RequestHead): string {
    const peer = Buffer.from(ex.res.getRemoteAddressAsText()).toString();
    return this.options.clientAddress ? this.options.clientAddress(peer, req.getHeader('x-forwarded-for')) : peer;
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
    { userAgent, range, files, raw: rawRequest }: { userAgent: string; range: string; files: UploadedFile[]; raw?: RawRequest },
  ): void {
    // `client` is read for every request, as Zulip's middleware does, so it is never "ignored".
    let client = raw.client;
    // Deleted only when sent: a `delete` of an absent property still costs a runtime call.
    if (client === undefined) client = clientFromUserAgent(userAgent);
    else delete raw.client;
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
      raw: rawRequest,
      defer: () => {
        const deferred = new Deferred();
        ex.deferred = deferred;
        return deferred;
      },
    };
    const result = compiled.route.handler(request);
    if (result instanceof Promise) this.exchanges.awaitAnswer(ex, result, (value) => this.exchanges.deliver(ex, value, ignored));
    else this.exchanges.deliver(ex, result, ignored);
  }
}
