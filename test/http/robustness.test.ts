/**
 * Every request gets an answer (or, where uWS 20.30 refuses it before JavaScript sees it, a closed
 * connection and a server that goes on serving): HEAD, odd methods, HTTP/1.0, missing Host, huge
 * heads, pipelining and oversized uploads, driven over raw sockets against one real server.
 */
import { test, type Test } from 'tap';
import { connect } from 'node:net';
import { request as httpRequest } from 'node:http';
import { Api } from '../helpers/client.js';
import { clientFor, startTestServer } from '../helpers/server.js';
import { setPasswordHashCost } from '../../src/domain/credentials.js';

// The pipelining test needs a password check that is still running when the next request arrives.
setPasswordHashCost('full');

const BODY_LIMIT = 64 * 1024;

interface Exchange {
  /** Everything the server sent, as latin1 text. */
  data: string;
  /** The server closed the connection (rather than the test giving up waiting). */
  closed: boolean;
}

/**
 * Writes `writes` to a fresh connection (one TCP write each, waiting for the previous to be
 * flushed and `gapMs`) and collects the answer until `done(data)` holds, the server closes,
 * or `waitMs` passes.
 */
/**
 * A close uWS makes at once, told apart from the close at its idle timeout (~10 s): below that,
 * yet four times the 2 s this used to be, for a loaded machine.
 */
const CLOSED_AT_ONCE_MS = 8_000;

function raw(
  port: number,
  writes: (string | Buffer)[],
  options: { done?: (data: string) => boolean; waitMs?: number; gapMs?: number } = {},
): Promise<Exchange> {
  // An exchange ends when `done` says so or the server closes; the wait is only a bound, generous
  // for a loaded machine (calls that expect no answer pass a short waitMs of their own, and those
  // that expect uWS to close at once pass CLOSED_AT_ONCE_MS).
  const { done, waitMs = 30_000, gapMs = 0 } = options;
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    let settled = false;
    const finish = (closed: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ data, closed });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on('data', (chunk) => {
      data += chunk.toString('latin1');
      if (done?.(data)) finish(false);
    });
    socket.on('error', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('connect', async () => {
      for (const write of writes) {
        if (settled) return;
        await new Promise<void>((flushed) => socket.write(write, () => flushed()));
        if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
      }
    });
  });
}

interface Parsed {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Splits a stream of HTTP/1.1 answers framed by Content-Length; `headOnly` marks answers to HEAD. */
function parseAnswers(data: string, headOnly: boolean[] = []): Parsed[] {
  const answers: Parsed[] = [];
  let rest = data;
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) break;
    const lines = rest.slice(0, end).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = headOnly[answers.length] ? 0 : Number(headers['content-length'] ?? 0);
    answers.push({ status: Number(lines[0].split(' ')[1]), headers, body: rest.slice(end + 4, end + 4 + length) });
    rest = rest.slice(end + 4 + length);
  }
  return answers;
}

const countAnswers = (n: number, headOnly: boolean[] = []) => (data: string) => {
  const answers = parseAnswers(data, headOnly);
  return answers.length >= n && answers.every((a) => a.body.length === (headOnly[answers.indexOf(a)] ? 0 : Number(a.headers['content-length'])));
};

/** A request line and headers, `Host` included unless given as null. */
function head(requestLine: string, headers: Record<string, string | null> = {}): string {
  const all: Record<string, string | null> = { Host: '127.0.0.1', ...headers };
  let text = requestLine + '\r\n';
  for (const [name, value] of Object.entries(all)) if (value !== null) text += `${name}: ${value}\r\n`;
  return text + '\r\n';
}

/** Uploads `total` bytes with Node's client, as fast as the socket takes them; resolves to the status or the error code. */
function upload(port: number, path: string, total: number, headers: Record<string, string | number>): Promise<number | string> {
  return new Promise((resolve) => {
    const req = httpRequest({ port, host: '127.0.0.1', path, method: 'POST', agent: false, headers });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    const piece = Buffer.alloc(64 * 1024, 'a');
    let sent = 0;
    const pump = () => {
      while (sent < total) {
        const part = piece.subarray(0, Math.min(piece.length, total - sent));
        sent += part.length;
        if (!req.write(part)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

test('every request gets an answer', async (t) => {
  const server = await startTestServer({ PARLEY_BODY_LIMIT: String(BODY_LIMIT) });
  t.teardown(() => server.destroy());
  const port = server.port;
  const iago = clientFor(server, 'iago@example.com');
  const anonymous = new Api(server.url);
  /** The server still answers a normal request on a new connection. */
  const stillServing = async (t: Test) => {
    const settings = await anonymous.get('/server_settings');
    t.equal(settings.status, 200, 'the server still serves new connections');
  };

  t.test('HEAD is answered as GET, without a body, and the connection stays usable', async (t) => {
    const get = await fetch(`${server.url}/api/v1/server_settings`);
    const getLength = Buffer.byteLength(await get.text());
    const cases: [string, Record<string, string>, number, string | undefined][] = [
      ['/api/v1/server_settings', {}, 200, undefined],
      ['/api/v1/users', {}, 401, undefined],
      ['/api/v1/users/me', {}, 401, undefined],
      ['/api/v1/users/me', { Authorization: iago.authorization! }, 200, undefined],
      ['/api/v1/get_stream_id?stream=Verona', {}, 401, undefined],
      ['/api/v1/no/such/path', {}, 404, undefined],
      ['/elsewhere', {}, 404, undefined],
      ['/api/v1/fetch_api_key', {}, 405, 'POST'],
    ];
    for (const [path, headers, status, allow] of cases) {
      // The HEAD, then a GET on the same connection: it is answered only if the HEAD's framing was right.
      const exchange = await raw(port, [head(`HEAD ${path} HTTP/1.1`, headers), head('GET /api/v1/server_settings HTTP/1.1')], {
        done: countAnswers(2, [true, false]),
        gapMs: 10,
      });
      const [answer, next] = parseAnswers(exchange.data, [true, false]);
      t.equal(answer?.status, status, `HEAD ${path}: ${status}`);
      t.ok(Number(answer?.headers['content-length']) > 0, `HEAD ${path}: the length GET would send`);
      t.equal(answer?.headers['content-type'], 'application/json');
      if (allow) t.equal(answer?.headers.allow, allow, 'Allow lists what the path serves');
      t.equal(next?.status, 200, `HEAD ${path}: no body was sent (the next answer parses)`);
      t.equal(Buffer.byteLength(next?.body ?? ''), getLength);
    }
    const settings = await fetch(`${server.url}/api/v1/server_settings`, { method: 'HEAD' });
    t.equal(Number(settings.headers.get('content-length')), getLength, 'Content-Length of the GET body');
    await stillServing(t);
  });

  t.test('methods: 405 with Allow where the path exists, 404 where it does not, in the envelope', async (t) => {
    for (const method of ['PUT', 'TRACE', 'CONNECT']) {
      const exchange = await raw(port, [head(`${method} /api/v1/users HTTP/1.1`)], { done: countAnswers(1) });
      const [answer] = parseAnswers(exchange.data);
      t.equal(answer?.status, 405, `${method} on a served path`);
      t.equal(answer?.headers.allow, 'GET, POST, HEAD');
      t.same(JSON.parse(answer?.body ?? '{}'), { result: 'error', msg: 'Method Not Allowed', allowed_methods: ['GET', 'POST', 'HEAD'] });
      const unknown = await raw(port, [head(`${method} /api/v1/nothing/here HTTP/1.1`)], { done: countAnswers(1) });
      const [missing] = parseAnswers(unknown.data);
      t.equal(missing?.status, 404, `${method} on an unknown path`);
      t.same(JSON.parse(missing?.body ?? '{}'), { result: 'error', msg: 'Not Found', code: 'NOT_FOUND' });
    }
    // uWS 20.30 closes these before JavaScript sees them (it knows a fixed set of upper-case methods).
    for (const requestLine of ['get /api/v1/server_settings HTTP/1.1', 'PROPFIND /api/v1/users HTTP/1.1', 'FOO /api/v1/users HTTP/1.1']) {
      const exchange = await raw(port, [head(requestLine)], { waitMs: CLOSED_AT_ONCE_MS });
      t.same([exchange.closed, exchange.data], [true, ''], `${requestLine.split(' ')[0]}: closed by uWS without an answer`);
    }
    await stillServing(t);
  });

  t.test('HTTP/1.0, a missing Host and oversized heads: refused by uWS, the server goes on', async (t) => {
    // uWS 20.30 never hands these to JavaScript and answers nothing: it holds the connection until
    // its idle timeout (~10 s). Meanwhile other connections are served.
    for (const [what, request] of [
      ['HTTP/1.0', head('GET /api/v1/server_settings HTTP/1.0')],
      ['HTTP/1.0 without Host', head('GET /api/v1/server_settings HTTP/1.0', { Host: null })],
      ['HTTP/1.1 without Host', head('GET /api/v1/server_settings HTTP/1.1', { Host: null })],
    ] as const) {
      const pending = raw(port, [request], { waitMs: 300 });
      await stillServing(t);
      const exchange = await pending;
      t.equal(exchange.data, '', `${what}: no answer from uWS`);
    }
    // A head that does not arrive in one read and exceeds uWS's buffer: closed without an answer;
    // one with too many header fields: no answer (held, or closed, depending on how it is read).
    const big = head('GET /api/v1/server_settings HTTP/1.1', { 'X-Big': 'a'.repeat(70 * 1024) });
    const split = await raw(port, [big.slice(0, 8 * 1024), big.slice(8 * 1024)], { gapMs: 20, waitMs: CLOSED_AT_ONCE_MS });
    t.same([split.closed, split.data], [true, ''], 'a 70 KB head in two reads: closed without an answer');
    const fields: Record<string, string> = {};
    for (let i = 0; i < 60; i++) fields[`X-Field-${i}`] = 'v';
    const many = await raw(port, [head('GET /api/v1/server_settings HTTP/1.1', fields)], { waitMs: 500 });
    t.equal(many.data, '', '60 header fields: no answer from uWS');
    await stillServing(t);
  });

  t.test('a request pipelined behind an asynchronous one is answered, in order', async (t) => {
    // POST /fetch_api_key checks the password asynchronously (scrypt); the GET arrives meanwhile.
    const login = 'username=iago%40example.com&password=wrong';
    const first = head('POST /api/v1/fetch_api_key HTTP/1.1', {
      'Content-Type': 'application/x-www-form-urlencoded',
      'Content-Length': String(login.length),
    }) + login;
    const exchange = await raw(port, [first, head('GET /api/v1/server_settings HTTP/1.1')], { gapMs: 20, done: countAnswers(2) });
    const answers = parseAnswers(exchange.data);
    t.same(answers.map((a) => a.status), [401, 200], 'both answered, in order');
    t.equal(JSON.parse(answers[0]?.body ?? '{}').code, 'AUTHENTICATION_FAILED');
    // Both in one TCP segment: uWS 20.30 parses the second while the first is pending and closes
    // the connection, before JavaScript can do anything; documented, and the server goes on.
    const together = await raw(port, [first + head('GET /api/v1/server_settings HTTP/1.1')], { waitMs: CLOSED_AT_ONCE_MS });
    t.same([together.closed, together.data], [true, ''], 'in one segment: closed by uWS');
    await stillServing(t);
  });

  t.test('oversized uploads get 413, not a reset', async (t) => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const size = 1024 * 1024;
    t.equal(await upload(port, '/api/v1/fetch_api_key', size, { ...form, 'transfer-encoding': 'chunked' }), 413, 'chunked');
    t.equal(await upload(port, '/api/v1/fetch_api_key', size, { ...form, 'content-length': size }), 413, 'declared length');
    t.equal(await upload(port, '/api/v1/users', size, { ...form, 'content-length': size }), 401, 'refused credentials before a large body: 401, not a reset');
    t.equal(await upload(port, '/api/v1/nothing', size, { ...form, 'transfer-encoding': 'chunked' }), 404, 'unknown path with a large body');
    const exchange = await raw(port, [head('POST /api/v1/fetch_api_key HTTP/1.1', { 'Transfer-Encoding': 'chunked' }), `${(BODY_LIMIT + 10).toString(16)}\r\n${'a'.repeat(BODY_LIMIT + 10)}\r\n0\r\n\r\n`], { waitMs: CLOSED_AT_ONCE_MS });
    const [answer] = parseAnswers(exchange.data);
    t.equal(answer?.status, 413);
    t.match(JSON.parse(answer?.body ?? '{}'), { result: 'error', code: 'BAD_REQUEST', msg: /too large/ });
    t.ok(exchange.closed, 'then the connection is closed');
    await stillServing(t);
  });

  t.test('credential errors are UNAUTHORIZED, as Zulip sends them', async (t) => {
    const wrong = await anonymous.as('iago@example.com', 'x'.repeat(32)).get('/users/me');
    t.same([wrong.status, wrong.body], [401, { result: 'error', msg: 'Invalid API key', code: 'UNAUTHORIZED' }]);
    t.equal(wrong.headers.get('www-authenticate'), 'Basic realm="zulip"');
  });
});
