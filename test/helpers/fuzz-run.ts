/**
 * Runs fuzzed requests one after another against a server and checks every answer: no 5xx,
 * an answer at all, Zulip's envelope, the server still alive, and nothing changed by a
 * refused request. (The server runs in this process: if it aborts, so does the run.) Every route
 * gets one request first, whatever the time budget, which bounds only the random requests after.
 * Shared by the bounded test (test/http/fuzz.test.ts) and `npm run fuzz`.
 */
import { describeChanges, type StateChange } from './state-digest.js';
import fc from 'fast-check';
import { hostFetch } from './host-fetch.js';
import { describeRequest, requestArbitrary, routeArbitraries, toWire, type EndpointSchema, type FuzzPools, type FuzzRequest } from './fuzz-requests.js';

/** A server under fuzz: where it answers, what it holds, and whether it is still there. */
export interface FuzzTarget {
  readonly url: string;
  /** The Host header to send (an organization's host); the URL's when absent. */
  readonly host?: string;
  /** Checks an answer's text for what must not be in it (another organization's secrets); the finding, or undefined. */
  leakIn?(text: string): string | undefined;
  /** Routes, users (with keys) and channels as the server has them now. */
  pools(): Promise<Pick<FuzzPools, 'routes' | 'users' | 'channels'>>;
  /** What changed in the server's state since the previous call. */
  changes(): Promise<StateChange[]>;
}

export type Property = 'no-answer' | '5xx' | 'envelope' | 'refused-changed' | 'leak';

export interface FuzzFailure {
  property: Property;
  /** The seed that generates this request (given the pools of that moment). */
  seed: number;
  index: number;
  request: FuzzRequest;
  status?: number;
  detail: string;
}

export interface FuzzFigures {
  requests: number;
  seconds: number;
  /** Status code (or `no-answer`, `parked`) → count. */
  statuses: Map<string, number>;
  /** `METHOD /path` of each route → requests sent to it and how many succeeded. */
  perRoute: Map<string, { sent: number; succeeded: number }>;
  failures: FuzzFailure[];
}

export interface FuzzOptions {
  seed: number;
  requests: number;
  schemas: Map<string, EndpointSchema>;
  /** Stop sending new requests after this many milliseconds. */
  budgetMs?: number;
  excludeMethods?: readonly string[];
  /** Called every `progressEvery` requests. */
  onProgress?: (figures: FuzzFigures) => void;
  progressEvery?: number;
}

/** A parked long-poll may legitimately not answer within the timeout. */
const isLongPoll = (r: FuzzRequest) => r.route.path === '/events' && r.route.method === 'GET' && ['GET', 'HEAD'].includes(r.method.toUpperCase());

const REQUEST_TIMEOUT_MS = 15_000;
/** Requests per route in the covering part, until one succeeds. */
const COVERAGE_TRIES = 4;
const LONG_POLL_TIMEOUT_MS = 2_500;

export async function runFuzz(target: FuzzTarget, options: FuzzOptions): Promise<FuzzFigures> {
  const started = Date.now();
  const figures: FuzzFigures = { requests: 0, seconds: 0, statuses: new Map(), perRoute: new Map(), failures: [] };
  const pools: FuzzPools = { ...(await target.pools()), messageIds: [], queueIds: [], topics: [], uploads: [] };
  await target.changes();

  // Every route first, whatever the time, until one request gets through (a few tries at most):
  // coverage depends on the seed, never on the machine's speed.
  const perRoute = routeArbitraries(pools, options.schemas, { exclude: options.excludeMethods });
  let index = 0;
  for (const [route, arbitrary] of perRoute.entries()) {
    const key = `${pools.routes[route]!.method} ${pools.routes[route]!.path}`;
    for (let attempt = 0; attempt < COVERAGE_TRIES && !(figures.perRoute.get(key)?.succeeded ?? 0); attempt++, index++) {
      const seed = (options.seed + index) % 2 ** 31;
      await sendAndCheck(target, pools, figures, fc.sample(arbitrary, { seed, numRuns: 1 })[0], seed, index);
    }
  }
  Object.assign(pools, await target.pools());
  const covering = index;

  // Then random requests to any route, for the time budget (which bounds this part only).
  const randomStarted = Date.now();
  let arbitrary = requestArbitrary(pools, options.schemas, { exclude: options.excludeMethods });
  for (; index < Math.max(options.requests, covering); index++) {
    if (options.budgetMs !== undefined && Date.now() - randomStarted > options.budgetMs) break;
    const seed = (options.seed + index) % 2 ** 31;
    const step = index - covering;
    // The arbitrary is rebuilt as the pools grow (ids learnt from answers, channels created).
    if (step % 100 === 0 || step === 10) arbitrary = requestArbitrary(pools, options.schemas, { exclude: options.excludeMethods });
    await sendAndCheck(target, pools, figures, fc.sample(arbitrary, { seed, numRuns: 1 })[0], seed, index);
    if (step % 100 === 99) Object.assign(pools, await target.pools());
    if (options.onProgress && index % (options.progressEvery ?? 1000) === (options.progressEvery ?? 1000) - 1) {
      figures.seconds = (Date.now() - started) / 1000;
      options.onProgress(figures);
    }
  }
  figures.seconds = (Date.now() - started) / 1000;
  return figures;
}

/** Sends one request and checks its answer and what it changed; learns ids from a success. */
async function sendAndCheck(target: FuzzTarget, pools: FuzzPools, figures: FuzzFigures, request: FuzzRequest, seed: number, index: number): Promise<void> {
  const count = (status: string) => figures.statuses.set(status, (figures.statuses.get(status) ?? 0) + 1);
  const fail = (property: Property, detail: string, status?: number) => figures.failures.push({ property, seed, index, request, status, detail });
  const wire = toWire(target.url, request);
  const longPoll = isLongPoll(request);
  figures.requests++;
  const routeKey = `${request.route.method} ${request.route.path}`;
  const perRoute = figures.perRoute.get(routeKey) ?? { sent: 0, succeeded: 0 };
  figures.perRoute.set(routeKey, perRoute);
  perRoute.sent++;

  let status: number | undefined;
  let contentType = '';
  let text = '';
  try {
    const response = await hostFetch(wire.url, {
      host: target.host,
      method: wire.method,
      headers: wire.headers,
      body: wire.body,
      signal: AbortSignal.timeout(longPoll ? LONG_POLL_TIMEOUT_MS : REQUEST_TIMEOUT_MS),
    });
    status = response.status;
    contentType = response.headers.get('content-type') ?? '';
    text = await response.text();
  } catch (error) {
    const timedOut = (error as Error).name === 'TimeoutError';
    if (longPoll && timedOut) count('parked');
    else if (refusedByHttpParser(wire)) {
      // uWS 20.30 closes these before JavaScript sees them (docs/http-robustness.md): counted, not failed.
      count('closed-by-parser');
    } else {
      count('no-answer');
      fail('no-answer', String((error as Error).cause ?? error));
    }
  }
  if (status === undefined) {
    await target.changes();
    return;
  }
  count(String(status));
  if (status >= 500) fail('5xx', text.slice(0, 300), status);
  const envelope = envelopeProblem(request, status, contentType, text);
  if (envelope) fail('envelope', envelope, status);
  const leak = target.leakIn?.(text);
  if (leak) fail('leak', leak, status);

  const changes = await target.changes();
  if ((status < 200 || status >= 300) && changes.length > 0) fail('refused-changed', `${status} ${text.slice(0, 160)} → ${describeChanges(changes)}`, status);

  if (status === 200) {
    perRoute.succeeded++;
    learn(pools, request, text);
  }
}

/** Why an answer is not Zulip's envelope, or undefined when it is. */
export function envelopeProblem(request: FuzzRequest, status: number, contentType: string, text: string): string | undefined {
  const method = request.method.toUpperCase();
  if (method === 'HEAD') return text === '' ? undefined : 'a HEAD answer has a body';
  if (status === 204) return text === '' ? undefined : '204 with a body';
  // Root routes answer files (any type), and their refusals are Zulip's small HTML pages.
  if (request.route.root && (status < 400 || contentType.startsWith('text/html'))) return undefined;
  if (!contentType.includes('application/json')) return `content-type '${contentType}'`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `not JSON: ${text.slice(0, 80)}`;
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return `not an object: ${text.slice(0, 80)}`;
  const { result, msg, code } = body as Record<string, unknown>;
  if (typeof msg !== 'string') return `msg is ${typeof msg}`;
  if (status >= 200 && status < 300) return result === 'success' ? undefined : `${status} with result ${String(result)}`;
  if (result !== 'error') return `${status} with result ${String(result)}`;
  // Zulip's "Method Not Allowed" (json_method_not_allowed) is the one error without a code.
  if (status === 405) return undefined;
  return typeof code === 'string' ? undefined : `${status} error without a code`;
}

/** Adds ids and names a successful answer revealed to the pools. */
function learn(pools: FuzzPools, request: FuzzRequest, text: string): void {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return;
  }
  const add = <T>(list: T[], value: T, max = 200) => {
    if (list.includes(value)) return;
    list.push(value);
    if (list.length > max) list.shift();
  };
  if (typeof body.id === 'number' && request.route.path === '/messages') add(pools.messageIds, body.id);
  if (typeof body.queue_id === 'string') add(pools.queueIds, body.queue_id, 20);
  if (typeof body.uri === 'string' && body.uri.startsWith('/user_uploads/')) add(pools.uploads, body.uri, 20);
  if (Array.isArray(body.messages)) {
    for (const message of body.messages as { id?: unknown; subject?: unknown }[]) {
      if (typeof message.id === 'number') add(pools.messageIds, message.id);
      if (typeof message.subject === 'string') add(pools.topics, message.subject, 50);
    }
  }
}

/** Failures grouped by what went wrong where: one line per distinct failure, with a first example. */
export function summarizeFailures(failures: readonly FuzzFailure[]): string[] {
  const groups = new Map<string, { count: number; first: FuzzFailure; where: string }>();
  for (const failure of failures) {
    const what = failure.property === 'refused-changed'
      ? failure.detail.split(' → ')[1].replace(/\d+/g, '#')
      : failure.detail.replace(/\d+/g, '#').slice(0, 80);
    // Answers that go missing depend on the method and the framing more than on the route.
    const { method } = failure.request;
    const known = ['GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'HEAD', 'OPTIONS'];
    const where = failure.property === 'no-answer' && method !== failure.request.route.method
      ? `method ${known.includes(method) ? method : known.includes(method.toUpperCase()) ? `${method} (lower case)` : 'unknown'}`
      : `${failure.request.route.method} ${failure.request.route.path}`;
    const key = `${failure.property} ${where} ${failure.status ?? ''} ${what}`;
    const group = groups.get(key);
    if (group) group.count++;
    else groups.set(key, { count: 1, first: failure, where });
  }
  return [...groups.values()].map(({ count, first, where }) =>
    `${first.property} ×${count} on ${where}: ${first.detail}\n    seed ${first.seed} (request #${first.index}): ${describeRequest(first.request)}`);
}

/**
 * uWS's own parser refuses these without an answer: methods it does not know, and heads over its
 * 4 KB carry-over buffer whenever they arrive in more than one read (measured: a 4.5 KB head sent
 * in two writes is closed, one sent in one write is served up to ~120 KB; see
 * docs/http-robustness.md). Whether the client's head arrives in one read is up to the client and
 * the kernel, so a head over the buffer may be closed and is not counted against the server.
 */
const UWS_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);
const UWS_HEAD_LIMIT_BYTES = 4 * 1024;

export function refusedByHttpParser(wire: { method: string; url: string; headers: Record<string, string> }): boolean {
  if (!UWS_METHODS.has(wire.method)) return true;
  const headBytes = Buffer.byteLength(wire.url) + Object.entries(wire.headers).reduce((sum, [name, value]) => sum + name.length + Buffer.byteLength(value) + 4, 0);
  return headBytes > UWS_HEAD_LIMIT_BYTES;
}
