/**
 * The HTTP front on uWebSockets.js: one catch-all uWS handler that reads the request
 * synchronously, finds the route, authenticates, applies rate limits, reads and parses the
 * body, validates parameters against the endpoint's schema, calls the handler and writes the
 * envelope. Everything that can outlive the uWS callback registers `onAborted` first
 * (STACK-NOTES #1) and writes inside `res.cork` (#7).
 */
import type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from '@trufflesuite/uws-js-unofficial';
import type { Logger } from 'pino';
import { ApiError } from '../domain/errors.js';
import { errorBody, internalError, statusLine, successBody } from './envelope.js';
import type { UwsModule } from './native.js';
import { parseBody, parseUrlEncoded, type RawParams } from './params.js';
import { rateLimitHit, type RateDecision, type RateLimiter } from './rate-limit.js';
import { Deferred, type DeferredWriter, type HandlerResult, RawJson } from './result.js';
import { Router, type HttpMethod } from './router.js';
import type { ParamValidator } from './validation.js';

const API_PREFIX = '/api/v1';
const METHODS = new Set<HttpMethod>(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

export interface ApiRequest<P> {
  readonly method: HttpMethod;
  readonly path: string;
  /** Validated parameters, path parameters included. */
  readonly params: Record<string, any>;
  /** The authenticated user or bot; always set on routes with `auth: 'user'`. */
  readonly principal: P | undefined;
  readonly userAgent: string;
  /** The client's name (Zulip's `client`): the `client` parameter, else the User-Agent's product name. */
  readonly client: string;
  /** Binds a response that the handler will finish later (long-polls). */
  defer(): Deferred;
}

export interface Route<P> {
  method: HttpMethod;
  /** Path pattern below /api/v1 (see router.ts for parameter syntax). */
  path: string;
  /** Name of the endpoint's schema in schemas/. */
  schema: string;
  /** `user`: credentials required; `none`: no credentials; `optional`: either (public access). */
  auth: 'user' | 'none' | 'optional';
  handler: (request: ApiRequest<P>) => HandlerResult | Promise<HandlerResult>;
}

export interface FrontOptions<P> {
  uws: UwsModule;
  routes: Route<P>[];
  validators: Map<string, ParamValidator>;
  bodyLimitBytes: number;
  /** Resolves Basic credentials to a principal or throws the ApiError to answer. */
  authenticate: (authorization: string) => P;
  rateLimits?: { perUser: RateLimiter; perIp: RateLimiter; keyOf: (principal: P) => string };
  logger: Logger;
  /** Called once per answered request (metrics); `route` is the route's path pattern. */
  observe?: (method: string, route: string, status: number, seconds: number) => void;
  /** Answers `GET /health` (outside /api/v1, no credentials) while the server accepts requests. */
  health?: () => HealthAnswer;
}

export interface HealthAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** Non-API path of the health check, as load balancers and orchestrators expect one. */
const HEALTH_PATH = '/health';

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
  /** The matched route's path pattern, for metrics ('unmatched' when none). */
  route: string;
  rate: RateDecision | undefined;
  deferred: Deferred | undefined;
  /** Unknown parameters, kept for a deferred answer. */
  ignored?: readonly string[];
}

export class HttpFront<P> implements DeferredWriter {
  private readonly app: TemplatedApp;
  private readonly router = new Router<Compiled<P>>();
  private listenSocket: us_listen_socket | undefined;
  private inFlight = 0;
  private idleWaiters: (() => void)[] = [];
  private accepting = true;

  constructor(private readonly options: FrontOptions<P>) {
    for (const route of options.routes) {
      const validator = options.validators.get(route.schema);
      if (!validator) throw new Error(`route ${route.method} ${route.path}: no schema '${route.schema}'`);
      this.router.add(route.method, route.path, { route, validator });
    }
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

  private onRequest(res: HttpResponse, req: HttpRequest): void {
    const method = req.getMethod().toUpperCase();
    const url = req.getUrl();
    const ex: Exchange = { res, aborted: false, head: method === 'HEAD', started: 0, tracked: false, method, url, route: 'unmatched', rate: undefined, deferred: undefined };
    if (this.options.observe || this.options.logger.isLevelEnabled('info')) ex.started = performance.now();
    try {
      this.route(ex, req, method, url);
    } catch (error) {
      this.fail(ex, error);
    }
  }

  private route(ex: Exchange, req: HttpRequest, method: string, url: string): void {
    if (url === HEALTH_PATH && this.options.health) {
      this.health(ex, method, this.options.health);
      return;
    }
    if (!this.accepting) throw new ApiError('BAD_REQUEST', 'Server is shutting down', 503);
    const path = url.startsWith(API_PREFIX + '/') ? url.slice(API_PREFIX.length) : undefined;
    const match = path === undefined ? undefined : this.router.match(path);
    if (!match) throw new ApiError('NOT_FOUND', 'Not Found', 404);
    // As Zulip: a path served by GET is also served for HEAD, and says so.
    const allowed: string[] = [...match.methods.keys()].sort();
    if (match.methods.has('GET')) allowed.push('HEAD');
    if (method === 'OPTIONS') {
      this.write(ex, 204, '', { Allow: [...allowed].sort().join(', ') });
      return;
    }
    const wanted = (method === 'HEAD' ? 'GET' : method) as HttpMethod;
    const compiled = METHODS.has(wanted) ? match.methods.get(wanted) : undefined;
    if (this.options.observe) ex.route = (compiled ?? match.methods.values().next().value)?.route.path ?? 'unmatched';
    if (!compiled) {
      const body = JSON.stringify({ result: 'error', msg: 'Method Not Allowed', allowed_methods: allowed });
      this.write(ex, 405, body, { Allow: allowed.join(', ') });
      return;
    }

    // Everything needed from `req` is read now: it is invalid once this callback returns.
    const authorization = req.getHeader('authorization');
    const contentType = req.getHeader('content-type');
    const contentLength = req.getHeader('content-length');
    const transferEncoding = req.getHeader('transfer-encoding');
    const userAgent = req.getHeader('user-agent');
    const raw: RawParams = {};
    parseUrlEncoded(req.getQuery() ?? '', raw);

    const principal = this.authenticate(ex, compiled.route, authorization);

    const hasBody = (contentLength !== '' && contentLength !== '0') || transferEncoding !== '';
    if (!hasBody) {
      this.run(ex, compiled, wanted, path!, match.params, raw, principal, userAgent);
      return;
    }
    const limit = this.options.bodyLimitBytes;
    if (contentLength !== '' && Number(contentLength) > limit) throw tooLarge(limit);
    this.track(ex);
    const chunks: Buffer[] = [];
    let size = 0;
    ex.res.onData((chunk, isLast) => {
      if (ex.aborted || size > limit) return;
      size += chunk.byteLength;
      if (size > limit) {
        this.fail(ex, tooLarge(limit), true);
        return;
      }
      chunks.push(Buffer.from(chunk.slice(0)));
      if (!isLast) return;
      try {
        parseBody(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks), contentType, raw, this.options.uws.getParts);
        this.run(ex, compiled, wanted, path!, match.params, raw, principal, userAgent);
      } catch (error) {
        this.fail(ex, error);
      }
    });
  }

  /** 200 while the store answers, 503 while shutting down (so a balancer stops sending) or when it does not. */
  private health(ex: Exchange, method: string, check: () => HealthAnswer): void {
    ex.route = HEALTH_PATH;
    if (method === 'OPTIONS') return this.write(ex, 204, '', { Allow: 'GET, HEAD' });
    if (method !== 'GET' && method !== 'HEAD') {
      const body = JSON.stringify({ result: 'error', msg: 'Method Not Allowed', allowed_methods: ['GET', 'HEAD'] });
      return this.write(ex, 405, body, { Allow: 'GET, HEAD' });
    }
    const answer = this.accepting
      ? check()
      : { status: 503, body: { result: 'error', code: 'BAD_REQUEST', msg: 'Server is shutting down', status: 'stopping' } };
    this.write(ex, answer.status, JSON.stringify(answer.body), { 'Cache-Control': 'no-store' });
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
    userAgent: string,
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
      defer: () => {
        const deferred = new Deferred();
        ex.deferred = deferred;
        return deferred;
      },
    };
    const result = compiled.route.handler(request);
    if (result instanceof Promise) {
      this.track(ex);
      result.then(
        (value) => this.deliver(ex, value, ignored),
        (error) => this.fail(ex, error),
      );
    } else {
      this.deliver(ex, result, ignored);
    }
  }

  private deliver(ex: Exchange, result: HandlerResult, ignored: readonly string[]): void {
    if (result instanceof Deferred) {
      this.track(ex);
      ex.ignored = ignored;
      result.writer = this;
      result.exchange = ex;
      return;
    }
    this.write(ex, 200, successBody(result, ignored));
  }

  /** Writes a parked (deferred) response once its owner settles it. */
  finish(exchange: unknown, outcome: unknown, isError: boolean): void {
    const ex = exchange as Exchange;
    if (isError) this.fail(ex, outcome);
    else this.write(ex, 200, successBody(outcome as Record<string, unknown> | RawJson, ex.ignored ?? []));
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

  private fail(ex: Exchange, error: unknown, close = false): void {
    if (ex.aborted) return;
    let apiError: ApiError;
    if (error instanceof ApiError) {
      apiError = error;
    } else {
      this.options.logger.error({ err: error, method: ex.method, url: ex.url }, 'unexpected error');
      apiError = internalError();
    }
    this.write(ex, apiError.status, errorBody(apiError), apiError.headers, close);
  }

  private write(ex: Exchange, status: number, body: string, headers?: Record<string, string>, close = false): void {
    if (ex.aborted) return;
    const tracked = ex.tracked;
    const res = ex.res;
    ex.aborted = true; // written: nothing may touch `res` again
    res.cork(() => {
      res.writeStatus(statusLine(status));
      if (ex.rate) {
        res.writeHeader('X-RateLimit-Limit', String(ex.rate.limit));
        res.writeHeader('X-RateLimit-Remaining', String(ex.rate.remaining));
        res.writeHeader('X-RateLimit-Reset', String(Math.ceil(ex.rate.resetAt)));
      }
      if (headers) for (const name in headers) res.writeHeader(name, headers[name]);
      if (status === 204) {
        res.end('', close);
        return;
      }
      res.writeHeader('Content-Type', 'application/json');
      if (ex.head) res.endWithoutBody(Buffer.byteLength(body), close);
      else res.end(body, close);
    });
    if (tracked) this.settle();
    this.options.observe?.(ex.method, ex.route, status, (performance.now() - ex.started) / 1000);
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

