/**
 * Random HTTP requests for the fuzz runs, built with fast-check from the route table and the
 * endpoints' JSON Schemas (schemas/): mostly plausible requests (known ids, names, credentials of every
 * role) with hostile values, encodings, methods and credentials mixed in.
 */
import fc from 'fast-check';
import { SCHEMAS } from '../../schemas/registry.js';

/** A route as the fuzzer needs it (from the URL table, src/api/routes.ts). */
export interface FuzzRoute {
  method: string;
  path: string;
  schema: string;
  auth: string;
  /** Outside /api/v1: `path` is from the root (uploaded files); answers are files or HTML error pages. */
  root?: boolean;
}

export interface FuzzUser {
  id: number;
  email: string;
  apiKey: string;
  role: number;
  isBot: boolean;
}

/** What the generator draws names and ids from; refreshed from the server as the run goes. */
export interface FuzzPools {
  routes: FuzzRoute[];
  users: FuzzUser[];
  channels: { id: number; name: string }[];
  messageIds: number[];
  queueIds: string[];
  topics: string[];
  /** Paths of uploaded files (`/user_uploads/…`), learnt from POST /user_uploads answers. */
  uploads: string[];
}

interface PropertySchema {
  readonly type?: string | readonly string[];
  readonly enum?: readonly unknown[];
  readonly items?: PropertySchema;
  readonly properties?: { readonly [name: string]: PropertySchema };
  readonly required?: readonly string[];
  readonly [key: string]: unknown;
}

export interface EndpointSchema {
  readonly properties?: { readonly [name: string]: PropertySchema };
  readonly required?: readonly string[];
}

/** The server's schemas (the registry validation compiles), by name. */
export function loadSchemas(): Map<string, EndpointSchema> {
  return new Map(SCHEMAS.map((schema) => [schema.$id, schema as EndpointSchema]));
}

export type Encoding = 'query' | 'form' | 'multipart' | 'json-values' | 'json-body' | 'garbage-type' | 'split';
export type Credential = { kind: 'user'; user: FuzzUser } | { kind: 'wrong-key'; email: string } | { kind: 'unknown-user' } | { kind: 'malformed'; header: string } | { kind: 'none' };

/** One generated request, before encoding: kept whole in failure reports. */
export interface FuzzRequest {
  route: FuzzRoute;
  method: string;
  /** Path below /api/v1, parameters filled in (or a mangled path). */
  path: string;
  /** Values that are strings are sent as they are; anything else JSON-encoded. */
  params: Record<string, unknown>;
  encoding: Encoding;
  credential: Credential;
  /** Bytes spliced into the body (invalid UTF-8), if any. */
  splice?: number[];
}

export interface WireRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Buffer;
}

// --- values ---------------------------------------------------------------------------

/** Drawing from fc.jsonValue costs ~1 ms a value: a fixed assortment drawn once serves as well. */
const jsonValues = (maxDepth: number) => fc.constantFrom(...fc.sample(fc.jsonValue({ maxDepth }), { seed: 42 + maxDepth, numRuns: 64 }));
const json1 = jsonValues(1);
const json2 = jsonValues(2);
const json3 = jsonValues(3);

const text = fc.oneof(
  { arbitrary: fc.constantFrom('hello', 'Denmark', 'general', 'topic', 'ghost', '', ' ', 'a'.repeat(61), '中文', 'Ünïcödé 🐙', '\u0000', 'x\u0000y', '\ud800', '%FF%FE', '**bold** @**Iago** #**Denmark**', '@**all**'), weight: 4 },
  { arbitrary: fc.string({ maxLength: 20 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 20 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }), weight: 1 },
);

/** Values no endpoint expects: wrong types, extremes, deep or huge JSON, control characters. */
const hostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, 0, -1, -(2 ** 31), 2 ** 31, 2 ** 53, 2 ** 63, 1e308, -1e308, 0.5, '', '[]', '{}', 'null', 'NaN', '1e999', '99999999999999999999999', '-0', '\u0000', '"quoted"'),
  fc.constantFrom<unknown>([], {}, [null], [[]], { name: null }, [{ }], ['a', 1, null], { __proto__: 1 }),
  fc.integer({ min: 1, max: 6 }).map((n) => '['.repeat(10 ** n / 10) + ']'.repeat(10 ** n / 10)),
  fc.integer({ min: 2, max: 5 }).map((n) => '{"a":'.repeat(10 ** n / 10) + '1' + '}'.repeat(10 ** n / 10)),
  fc.integer({ min: 1000, max: 100_000 }).map((n) => 'x'.repeat(n)),
  fc.string({ unit: 'binary' }),
  json3,
  fc.integer(),
  fc.double(),
);

function idPool(ids: readonly number[]): fc.Arbitrary<number> {
  return fc.oneof(
    { arbitrary: ids.length > 0 ? fc.constantFrom(...ids) : fc.constant(1), weight: 12 },
    { arbitrary: fc.constantFrom(0, -1, 999_999, 2 ** 53 - 1, 10 ** 15), weight: 1 },
    { arbitrary: fc.integer({ min: -5, max: 50 }), weight: 1 },
  );
}

function pick<T>(values: readonly T[], fallback: T): fc.Arbitrary<T> {
  return values.length > 0 ? fc.constantFrom(...values) : fc.constant(fallback);
}

const OPERATORS = ['channel', 'stream', 'topic', 'subject', 'sender', 'dm', 'pm-with', 'is', 'search', 'id', 'has', 'near', 'with', 'channels', 'dm-including', 'group-pm-with', 'bogus'];

/** A value for a parameter, chosen by its name and schema: plausible most of the time. */
function valueFor(name: string, schema: PropertySchema | undefined, pools: FuzzPools, depth = 0): fc.Arbitrary<unknown> {
  const plausible = plausibleFor(name, schema ?? {}, pools, depth);
  return fc.oneof({ arbitrary: plausible, weight: 7 }, { arbitrary: hostile, weight: 1 });
}

function plausibleFor(name: string, schema: PropertySchema, pools: FuzzPools, depth: number): fc.Arbitrary<unknown> {
  const userIds = pools.users.map((u) => u.id);
  const channelIds = pools.channels.map((c) => c.id);
  const channelNames = pools.channels.map((c) => c.name);
  const emails = pools.users.map((u) => u.email);
  const channelName = fc.oneof({ arbitrary: pick(channelNames, 'general'), weight: 4 }, { arbitrary: text, weight: 2 }, { arbitrary: fc.constantFrom('ghost', 'fuzz-new', ''), weight: 2 });
  const messageId = idPool(pools.messageIds);
  const userRef = fc.oneof(idPool(userIds), pick(emails, 'iago@example.com'), fc.constant('nobody@example.com'));

  if (schema.enum) return fc.oneof({ arbitrary: fc.constantFrom(...schema.enum), weight: 12 }, { arbitrary: text, weight: 1 });
  switch (name) {
    case 'stream_id':
      return idPool(channelIds);
    case 'user_id':
      return idPool(userIds);
    case 'message_ids':
    case 'messages':
      return fc.array(messageId, { maxLength: 5 });
    case 'user_ids':
      return fc.array(idPool(userIds), { maxLength: 5 });
    case 'to':
      if (schema.type === 'array') return fc.array(idPool(userIds), { maxLength: 4 });
      return fc.oneof({ arbitrary: pick(channelNames, 'general'), weight: 3 }, channelName, idPool(channelIds), fc.array(userRef, { minLength: 1, maxLength: 4 }), pick(emails, 'iago@example.com'));
    case 'principals':
      return fc.array(userRef, { maxLength: 3 });
    case 'stream':
    case 'name':
      return channelName;
    case 'delete':
    case 'subscriptions':
      if (schema.items?.type === 'string') return fc.array(channelName, { maxLength: 3 });
      break;
    case 'topic':
    case 'subject':
    case 'topic_name':
      return fc.oneof(pick(pools.topics, 'topic'), text);
    case 'anchor':
      return fc.oneof(fc.constantFrom('newest', 'oldest', 'first_unread', 'date', ''), messageId.map(String));
    case 'narrow':
      return fc.array(
        fc.oneof(
          fc.tuple(fc.constantFrom(...OPERATORS), fc.oneof(channelName, text, messageId, userRef, fc.constantFrom('starred', 'unread', 'mentioned', 'dm', 'private', 'resolved'))),
          fc.record({ operator: fc.constantFrom(...OPERATORS), operand: fc.oneof(channelName, messageId, fc.array(idPool(userIds), { maxLength: 3 })), negated: fc.boolean() }),
        ),
        { maxLength: 3 },
      );
    case 'queue_id':
      return fc.oneof(pick(pools.queueIds, 'no-queue'), text);
    case 'last_event_id':
      return fc.integer({ min: -2, max: 200 });
    case 'flag':
      return fc.constantFrom('read', 'starred', 'collapsed', 'mentioned', 'wildcard_mentioned', 'has_alert_word', 'historical', 'bogus');
    case 'op':
      return fc.constantFrom('add', 'remove', 'start', 'stop', 'bogus');
    case 'emoji_name':
      return fc.constantFrom('smile', '+1', 'heart', 'octopus', 'zulip', 'no_such_emoji', '');
    case 'emoji_code':
      return fc.constantFrom('1f642', '1f44d', '2764', 'zulip', 'ffff', '');
    case 'reaction_type':
      return fc.constantFrom('unicode_emoji', 'realm_emoji', 'zulip_extra_emoji', 'bogus');
    case 'role':
      return fc.constantFrom(100, 200, 300, 400, 600, 999, 0, -1);
    case 'email':
    case 'username':
    case 'new_email':
      return fc.oneof(pick(emails, 'iago@example.com'), fc.constantFrom('new-user@example.com', 'not-an-email', ''), text);
    case 'password':
      return fc.constantFrom('parley-demo', 'wrong', '');
    case 'status':
      return fc.constantFrom('active', 'idle', 'bogus');
    case 'report_type':
      return fc.constantFrom('spam', 'harassment', 'inappropriate', 'norms', 'other', 'bogus');
    case 'property':
      return fc.constantFrom('color', 'is_muted', 'in_home_view', 'pin_to_top', 'desktop_notifications', 'audible_notifications', 'push_notifications', 'email_notifications', 'wildcard_mentions_notify', 'bogus');
    case 'value':
      return fc.oneof(fc.boolean(), fc.constantFrom('#ff0000', '#abc', 'red', '', null, 1));
    case 'color':
      return fc.constantFrom('#ff0000', '#abc', 'red', '');
    case 'visibility_policy':
      return fc.constantFrom(0, 1, 2, 3, 4, -1);
    case 'event_types':
    case 'fetch_event_types':
      return fc.oneof(fc.constant(null), fc.array(fc.constantFrom('message', 'subscription', 'realm_user', 'update_message_flags', 'reaction', 'restart', 'heartbeat', 'bogus'), { maxLength: 4 }));
    case 'dont_block':
      return fc.oneof({ arbitrary: fc.constant(true), weight: 4 }, { arbitrary: fc.boolean(), weight: 1 });
    case 'num_before':
    case 'num_after':
      return fc.oneof(fc.integer({ min: 0, max: 20 }), fc.constantFrom(5000, 100_000));
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: -2, max: 100 });
    case 'number':
      return fc.double();
    case 'string':
      return text;
    case 'array':
      if (depth > 2) return fc.constant([]);
      return fc.array(valueFor(name, schema.items ?? {}, pools, depth + 1), { maxLength: 3 });
    case 'object': {
      if (depth > 2 || !schema.properties) return fc.dictionary(fc.string({ maxLength: 8 }), json1, { maxKeys: 3 });
      const fields: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, sub] of Object.entries(schema.properties)) fields[key] = valueFor(key, sub, pools, depth + 1);
      return fc.record(fields, { requiredKeys: [...(schema.required ?? [])] });
    }
  }
  return fc.oneof(text, json2);
}

// --- requests -------------------------------------------------------------------------

function pathFor(pattern: string, pools: FuzzPools): fc.Arbitrary<string> {
  const parts = pattern.split('/').map((segment): fc.Arbitrary<string> => {
    const param = /^\{(\w+)(?::(\w+))?\}$/.exec(segment);
    if (!param) return fc.constant(segment);
    const weird = fc.constantFrom('-1', '0', '1.5', 'abc', '9999999999999999', '%ZZ', '%00', '', 'me', '%F0%9F%90%99');
    if (param[2] === 'email') {
      return fc.oneof({ arbitrary: pick(pools.users.map((u) => u.email), 'iago@example.com').map(encodeURIComponent), weight: 5 }, fc.constantFrom('nobody%40example.com', '%40', 'a@b@c'), weird);
    }
    const ids = param[1] === 'user_id' ? pools.users.map((u) => u.id) : param[1] === 'stream_id' ? pools.channels.map((c) => c.id) : pools.messageIds;
    return fc.oneof({ arbitrary: idPool(ids).map(String), weight: 8 }, weird);
  });
  const filled = fc.tuple(...parts).map((segments) => segments.join('/'));
  return fc.oneof(
    { arbitrary: filled, weight: 30 },
    { arbitrary: filled.map((p) => p + '/'), weight: 1 },
    { arbitrary: filled.map((p) => p + '/extra'), weight: 1 },
    { arbitrary: filled.map((p) => p.replace(/^\//, '//')), weight: 1 },
    { arbitrary: fc.constantFrom('/no/such/route', '/', '/%', '/users/%ZZ', '/../../etc/passwd'), weight: 1 },
  );
}

function paramsFor(route: FuzzRoute, schema: EndpointSchema | undefined, pools: FuzzPools): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema?.properties ?? {};
  const required = new Set(schema?.required ?? []);
  const fields: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties)) {
    const value = valueFor(name, property, pools);
    // Required parameters are usually there, optional ones half the time.
    fields[name] = required.has(name) ? fc.option(value, { freq: 12, nil: undefined }) : fc.option(value, { freq: 1, nil: undefined });
  }
  // Some requests are well formed throughout, so that handlers are reached and state changes.
  const clean: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties)) clean[name] = fc.option(plausibleFor(name, property, pools, 0), { freq: 8, nil: undefined });
  const extra = fc.dictionary(fc.constantFrom('bogus', 'client', 'api_key', 'stream_id', 'user_id', '', 'a b', 'x\u0000'), hostile, { maxKeys: 2 });
  // `subject` is the old name of `topic`: a well-formed request sends one of them.
  const cleanRecord = fc.record(clean).map((params) => {
    if (params.topic !== undefined) delete params.subject;
    return params;
  });
  const base = fc.oneof({ arbitrary: fc.record(fields), weight: 3 }, { arbitrary: cleanRecord, weight: 2 });
  return fc.tuple(base, fc.oneof({ arbitrary: fc.constant({}), weight: 8 }, { arbitrary: extra, weight: 1 })).map(([base, more]) => {
    const params: Record<string, unknown> = {};
    for (const [name, value] of Object.entries({ ...base, ...more })) if (value !== undefined) params[name] = value;
    return params;
  });
}

function credentialFor(pools: FuzzPools): fc.Arbitrary<Credential> {
  const users = pools.users.filter((u) => u.apiKey);
  return fc.oneof(
    { arbitrary: fc.constantFrom(...users).map((user): Credential => ({ kind: 'user', user })), weight: 24 },
    { arbitrary: fc.constantFrom(...users).map((user): Credential => ({ kind: 'wrong-key', email: user.email })), weight: 2 },
    { arbitrary: fc.constant<Credential>({ kind: 'unknown-user' }), weight: 1 },
    { arbitrary: fc.constantFrom('Basic', 'Basic !!!', 'Bearer abc', 'Basic ' + Buffer.from('no-colon').toString('base64'), 'Basic ' + Buffer.from(':').toString('base64'), 'basic aWFnbzp4').map((header): Credential => ({ kind: 'malformed', header })), weight: 1 },
    { arbitrary: fc.constant<Credential>({ kind: 'none' }), weight: 2 },
  );
}

export interface MethodOptions {
  /** Methods never sent (e.g. while a known bug makes one of them abort the server). */
  exclude?: readonly string[];
}

function methodFor(route: FuzzRoute, options: MethodOptions): fc.Arbitrary<string> {
  const exclude = new Set((options.exclude ?? []).map((m) => m.toUpperCase()));
  const choices: { methods: string[]; weight: number }[] = [
    { methods: [route.method], weight: 40 },
    { methods: ['GET', 'POST', 'PATCH', 'DELETE', 'PUT'], weight: 4 },
    { methods: ['HEAD'], weight: 1 },
    { methods: ['OPTIONS'], weight: 1 },
    { methods: [route.method.toLowerCase()], weight: 1 },
    { methods: ['FOO', 'PROPFIND', 'BREW'], weight: 1 },
  ];
  const allowed = choices
    .map(({ methods, weight }) => ({ methods: methods.filter((m) => !exclude.has(m.toUpperCase())), weight }))
    .filter(({ methods }) => methods.length > 0)
    .map(({ methods, weight }) => ({ arbitrary: fc.constantFrom(...methods), weight }));
  return fc.oneof(...allowed);
}

export function requestArbitrary(pools: FuzzPools, schemas: Map<string, EndpointSchema>, options: MethodOptions = {}): fc.Arbitrary<FuzzRequest> {
  const perRoute = routeArbitraries(pools, schemas, options);
  // Logging in hashes a password (~0.3 s of the thread pool): that route is drawn less often.
  return fc.oneof(...perRoute.map((arbitrary, i) => ({ arbitrary, weight: pools.routes[i].path === '/fetch_api_key' ? 1 : 4 })));
}

/** One arbitrary per route of `pools.routes`, in the same order: requests to that route only. */
export function routeArbitraries(pools: FuzzPools, schemas: Map<string, EndpointSchema>, options: MethodOptions = {}): fc.Arbitrary<FuzzRequest>[] {
  // Built once per route (building arbitraries costs more than drawing from them).
  return pools.routes.map((route) => {
    const encoding = fc.oneof(
      { arbitrary: fc.constant<Encoding>(route.method === 'GET' ? 'query' : 'form'), weight: 12 },
      { arbitrary: fc.constantFrom<Encoding>('query', 'form', 'multipart', 'json-values', 'split'), weight: 4 },
      { arbitrary: fc.constantFrom<Encoding>('json-body', 'garbage-type'), weight: 1 },
    );
    const splice = fc.oneof(
      { arbitrary: fc.constant(undefined), weight: 15 },
      { arbitrary: fc.constantFrom<number[]>([0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0x00], [0xe2, 0x82]), weight: 1 },
    );
    return fc.record({
      route: fc.constant(route),
      method: methodFor(route, options),
      path: route.root && route.path.startsWith('/user_uploads/') && pools.uploads.length > 0
        ? fc.oneof({ arbitrary: pathFor(route.path, pools), weight: 1 }, { arbitrary: fc.constantFrom(...pools.uploads), weight: 2 })
        : pathFor(route.path, pools),
      params: paramsFor(route, schemas.get(route.schema), pools),
      encoding,
      credential: credentialFor(pools),
      splice,
    }).map((r) => {
      const out: FuzzRequest = { route: r.route, method: r.method, path: r.path, params: r.params, encoding: r.encoding, credential: r.credential };
      if (r.splice) out.splice = r.splice;
      return out;
    });
  });
}

/** The request a seed stands for, given the pools at that moment. */
export function requestForSeed(seed: number, pools: FuzzPools, schemas: Map<string, EndpointSchema>, options: MethodOptions = {}): FuzzRequest {
  return fc.sample(requestArbitrary(pools, schemas, options), { seed, numRuns: 1 })[0];
}

// --- encoding -------------------------------------------------------------------------

const asText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value) ?? 'null');

function urlEncoded(params: Record<string, unknown>, jsonEverything = false): string {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) form.append(name, jsonEverything ? JSON.stringify(value) ?? 'null' : asText(value));
  // Percent-escapes the fuzzer meant literally (`%FF%FE`) survive URLSearchParams as `%25FF`; that is fine.
  return form.toString();
}

function multipart(params: Record<string, unknown>, boundary: string): Buffer {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(params)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`), Buffer.from(asText(value)), Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(parts);
}

function authorization(credential: Credential): string | undefined {
  const basic = (user: string, key: string) => 'Basic ' + Buffer.from(`${user}:${key}`).toString('base64');
  switch (credential.kind) {
    case 'user':
      return basic(credential.user.email, credential.user.apiKey);
    case 'wrong-key':
      return basic(credential.email, 'wrongwrongwrongwrongwrongwrong12');
    case 'unknown-user':
      return basic('nobody@example.com', 'wrongwrongwrongwrongwrongwrong12');
    case 'malformed':
      return credential.header;
    case 'none':
      return undefined;
  }
}

export function toWire(baseUrl: string, request: FuzzRequest): WireRequest {
  const headers: Record<string, string> = {};
  const auth = authorization(request.credential);
  if (auth !== undefined) headers.authorization = auth;
  let query = '';
  let body: Buffer | undefined;
  const { params } = request;
  switch (request.encoding) {
    case 'query':
      query = urlEncoded(params);
      break;
    case 'form':
      body = Buffer.from(urlEncoded(params));
      headers['content-type'] = 'application/x-www-form-urlencoded';
      break;
    case 'json-values':
      body = Buffer.from(urlEncoded(params, true));
      headers['content-type'] = 'application/x-www-form-urlencoded';
      break;
    case 'multipart': {
      const boundary = 'fuzzboundary' + Object.keys(params).length;
      body = multipart(params, boundary);
      headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
      break;
    }
    case 'json-body':
      body = Buffer.from(JSON.stringify(params));
      headers['content-type'] = 'application/json';
      break;
    case 'garbage-type':
      body = Buffer.from(urlEncoded(params));
      headers['content-type'] = 'text/x-garbage; charset=ebcdic';
      break;
    case 'split': {
      const names = Object.keys(params);
      const half = Math.ceil(names.length / 2);
      query = urlEncoded(Object.fromEntries(names.slice(0, half).map((n) => [n, params[n]])));
      body = Buffer.from(urlEncoded(Object.fromEntries(names.slice(half).map((n) => [n, params[n]]))));
      headers['content-type'] = 'application/x-www-form-urlencoded';
      break;
    }
  }
  if (request.splice) {
    const at = body ? Math.floor(body.length / 2) : 0;
    const bytes = Buffer.from(request.splice);
    body = body ? Buffer.concat([body.subarray(0, at), bytes, body.subarray(at)]) : Buffer.concat([Buffer.from('content='), bytes]);
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
  }
  // GET and HEAD cannot carry a body through fetch: their body parameters move to the query.
  const upper = request.method.toUpperCase();
  if (body && (upper === 'GET' || upper === 'HEAD')) {
    query = [query, body.toString('latin1').split('').every((c) => c.charCodeAt(0) < 128) ? body.toString() : encodeURIComponent(body.toString('latin1'))].filter(Boolean).join('&');
    body = undefined;
    delete headers['content-type'];
  }
  const url = `${baseUrl}${request.route.root ? '' : '/api/v1'}${request.path}${query ? `?${query}` : ''}`;
  return { method: request.method, url, headers, body };
}

/** A short form of a request for reports: method, path, parameters (long values cut). */
export function describeRequest(request: FuzzRequest): string {
  const params = Object.entries(request.params).map(([name, value]) => {
    const shown = asText(value);
    return `${name}=${shown.length > 80 ? `${shown.slice(0, 60)}…(${shown.length} chars)` : shown}`;
  });
  const who = request.credential.kind === 'user' ? request.credential.user.email : request.credential.kind;
  const splice = request.splice ? ` +bytes[${request.splice.map((b) => b.toString(16)).join(' ')}]` : '';
  return `${request.method} ${request.path} [${request.encoding}${splice}] as ${who}: ${params.join(' ')}`;
}
