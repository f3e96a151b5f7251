/**
 * Black-box tests of what the HTTP front does before any endpoint runs: routing (404, 405, OPTIONS,
 * HEAD), bodies over the limit, and rate limits. Every subtest has its own server; the rate-limit
 * subtests each have their own fake clock.
 */
import { test } from 'tap';
import { Api } from '../helpers/client.js';
import { world } from '../helpers/world.js';

test('routing and limits', async (t) => {
  t.test('routing: 404, 405, OPTIONS, HEAD', async (t) => {
    const { server, anonymous, iago } = await world(t);
    const missing = await anonymous.get('/no/such/endpoint');
    t.equal(missing.status, 404);
    t.same(missing.body, { result: 'error', msg: 'Not Found', code: 'NOT_FOUND' });
    const outside = await fetch(`${server.url}/elsewhere`);
    t.equal(outside.status, 404, 'paths outside /api/v1 are unknown too');
    t.equal(((await outside.json()) as any).code, 'NOT_FOUND');

    const wrongMethod = await anonymous.request('PUT', '/server_settings');
    t.equal(wrongMethod.status, 405);
    t.same(wrongMethod.body, { result: 'error', msg: 'Method Not Allowed', allowed_methods: ['GET', 'HEAD'] });
    t.equal(wrongMethod.headers.get('allow'), 'GET, HEAD');
    const wrongOnPost = await anonymous.request('GET', '/fetch_api_key');
    t.same(wrongOnPost.body.allowed_methods, ['POST']);

    const options = await fetch(`${server.url}/api/v1/users`, { method: 'OPTIONS' });
    t.equal(options.status, 204);
    t.equal(options.headers.get('allow'), 'GET, HEAD, POST');
    const both = await anonymous.request('PUT', '/users');
    t.same(both.body.allowed_methods, ['GET', 'POST', 'HEAD'], 'HEAD follows the methods, as Zulip lists it');

    const head = await fetch(`${server.url}/api/v1/users/me`, { method: 'HEAD', headers: { authorization: iago.authorization! } });
    t.equal(head.status, 200, 'HEAD is served by GET');
    t.equal(await head.text(), '', 'without a body');
    t.ok(Number(head.headers.get('content-length')) > 0, 'but with the length GET would send');
  });

  t.test('bodies over the limit get 413 without being read', async (t) => {
    const { server, hamlet } = await world(t);
    const big = 'content=' + 'x'.repeat(1024 * 1024 + 10);
    const declared = await fetch(`${server.url}/api/v1/fetch_api_key`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: big,
    });
    t.equal(declared.status, 413);
    t.match((await declared.json()) as any, { result: 'error', code: 'BAD_REQUEST', msg: /too large/ });
    const chunks = (async function* () {
      for (let i = 0; i < 20; i++) yield new TextEncoder().encode('x'.repeat(100 * 1024));
    })();
    const streamed = await fetch(`${server.url}/api/v1/fetch_api_key`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: chunks as any,
      duplex: 'half',
    } as RequestInit).catch((error: unknown) => error);
    if (streamed instanceof Response) t.equal(streamed.status, 413, 'a chunked body is cut off at the limit');
    else t.pass('the server closed the connection of a chunked body over the limit');
    t.equal((await hamlet.get('/users/me')).status, 200, 'and the server keeps serving');
  });
});

test('rate limits', async (t) => {
  t.test('200 requests per user per minute', async (t) => {
    const { iago, hamlet, advance, now } = await world(t, { env: { PARLEY_RATE_LIMIT: '1' }, clockStart: Date.UTC(2026, 0, 1) });
    const first = await hamlet.get('/users/me');
    t.equal(first.headers.get('x-ratelimit-limit'), '200');
    t.equal(first.headers.get('x-ratelimit-remaining'), '199');
    t.equal(first.headers.get('x-ratelimit-reset'), String(Math.ceil(now() / 1000) + 60));
    for (let i = 0; i < 199; i++) await hamlet.get('/users/me');
    const refused = await hamlet.get('/users/me');
    t.equal(refused.status, 429);
    t.match(refused.body, { result: 'error', code: 'RATE_LIMIT_HIT', msg: 'API usage exceeded rate limit' });
    t.equal(refused.body['retry-after'], 60);
    t.equal(refused.headers.get('retry-after'), '60');
    t.equal(refused.headers.get('x-ratelimit-remaining'), '0');
    t.equal((await iago.get('/users/me')).status, 200, 'other users are not affected');
    advance(30);
    t.equal((await hamlet.get('/users/me')).body['retry-after'], 30);
    advance(30.001);
    t.equal((await hamlet.get('/users/me')).status, 200, 'allowed again once the window has moved on');
  });

  t.test('100 unauthenticated requests per IP per minute', async (t) => {
    const { server, advance } = await world(t, { env: { PARLEY_RATE_LIMIT: '1' }, clockStart: Date.UTC(2026, 0, 1) });
    const anonymous = new Api(server.url);
    for (let i = 0; i < 100; i++) t.equal((await anonymous.get('/server_settings')).status, 200, `request ${i + 1}`);
    const refused = await anonymous.get('/server_settings');
    t.equal(refused.status, 429);
    advance(61);
  });

  t.test('5 failed passwords per username per 30 minutes', async (t) => {
    const { server, advance } = await world(t, { env: { PARLEY_RATE_LIMIT: '1' }, clockStart: Date.UTC(2026, 0, 1) });
    const anonymous = new Api(server.url);
    for (let i = 0; i < 5; i++) {
      t.equal((await anonymous.post('/fetch_api_key', { username: 'othello@example.com', password: 'bad' })).status, 401);
    }
    const refused = await anonymous.post('/fetch_api_key', { username: 'othello@example.com', password: 'parley-demo' });
    t.equal(refused.status, 429, 'even the right password is refused now');
    t.equal(refused.body.code, 'RATE_LIMIT_HIT');
    const other = await anonymous.post('/fetch_api_key', { username: 'cordelia@example.com', password: 'parley-demo' });
    t.equal(other.status, 200, 'other usernames are not affected');
    advance(30 * 60 + 1);
    t.equal((await anonymous.post('/fetch_api_key', { username: 'othello@example.com', password: 'parley-demo' })).status, 200);
  });
});
