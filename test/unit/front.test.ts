/** The HTTP front on a real uWS socket with routes of its own: unexpected errors, late answers, disconnects. */
import { test } from 'tap';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { pino } from 'pino';
import { HttpFront } from '../../src/http/front.js';
import { loadUws } from '../../src/http/native.js';
import { compileValidators } from '../../src/http/validation.js';
import { Deferred } from '../../src/shared/handler-result.js';
import { ApiError } from '../../src/domain/errors.js';
import { freePort } from '../helpers/server.js';

test('front: 500 for unexpected errors, deferred answers, aborted clients', async (t) => {
  let parked: Deferred | undefined;
  let aborted = 0;
  const logged: unknown[] = [];
  const logger = pino({ level: 'error' }, { write: (line: string) => logged.push(JSON.parse(line)) });
  const front = new HttpFront<string>({
    uws: loadUws(),
    validators: compileValidators([{ $id: 'empty', type: 'object', properties: {} }]),
    bodyLimitBytes: 1024,
    authenticate: () => 'someone',
    logger,
    routes: [
      { method: 'GET', path: '/boom', schema: 'empty', auth: 'none', handler: () => { throw new Error('kaboom'); } },
      { method: 'GET', path: '/later-boom', schema: 'empty', auth: 'none', handler: async () => { await new Promise((r) => setTimeout(r, 5)); throw new Error('later'); } },
      { method: 'GET', path: '/teapot', schema: 'empty', auth: 'none', handler: async () => { throw new ApiError('BAD_REQUEST', 'short and stout', 400, { spout: true }); } },
      { method: 'GET', path: '/whoami', schema: 'empty', auth: 'user', handler: (req) => ({ who: req.principal }) },
      {
        method: 'GET', path: '/park', schema: 'empty', auth: 'none',
        handler: (req) => {
          parked = req.defer();
          parked.onAbort({ parkAborted: () => aborted++ });
          return parked;
        },
      },
    ],
  });
  const port = await freePort();
  await front.listen('127.0.0.1', port);
  t.teardown(async () => {
    front.stopAccepting();
    front.closeConnections();
  });
  const url = (path: string) => `http://127.0.0.1:${port}/api/v1${path}`;

  const boom = await fetch(url('/boom'));
  t.equal(boom.status, 500);
  t.same(await boom.json(), { result: 'error', msg: 'Internal server error', code: 'INTERNAL_SERVER_ERROR' });
  t.match(logged[0], { msg: 'unexpected error', err: { message: 'kaboom' } }, 'the stack is logged');
  const later = await fetch(url('/later-boom'));
  t.equal(later.status, 500, 'also after an await');
  const teapot = await fetch(url('/teapot'));
  t.same(await teapot.json(), { result: 'error', msg: 'short and stout', code: 'BAD_REQUEST', spout: true });
  const who = await fetch(url('/whoami'), { headers: { authorization: 'Basic x' } });
  t.same(await who.json(), { result: 'success', msg: '', who: 'someone' }, 'the process kept serving');

  const pending = fetch(url('/park'));
  while (!parked) await new Promise((r) => setTimeout(r, 5));
  const first = parked;
  first.resolve({ events: [] });
  t.same(await (await pending).json(), { result: 'success', msg: '', events: [] }, 'a deferred answer is written when resolved');
  parked = undefined;

  await front.idle();
  t.pass('nothing in flight once answered');

  // A client that leaves while parked: the owner hears about it and nothing is written.
  const req = httpRequest(url('/park'));
  req.on('error', () => undefined);
  req.end();
  while (!parked) await new Promise((r) => setTimeout(r, 5));
  req.destroy();
  // The server hears of the close when it reads the socket, which on a loaded machine can come
  // after any fixed pause: wait for it (bounded), then check it was heard exactly once.
  const until = Date.now() + 30_000;
  while (aborted === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
  await new Promise((r) => setTimeout(r, 50)); // room for a second call, which would be wrong
  t.equal(aborted, 1, 'onAbort ran');
  parked!.resolve({ events: [] });
  t.pass('resolving after the abort is harmless');
  await front.idle();
  t.pass('an aborted request is not counted in flight');
});

test('front: every uWS callback answers or registers onAborted, whatever the handler does', async (t) => {
  let openGate: (() => void) | undefined;
  const observed: [string, string, number][] = [];
  const front = new HttpFront<string>({
    uws: loadUws(),
    validators: compileValidators([{ $id: 'empty', type: 'object', properties: {} }]),
    bodyLimitBytes: 1024,
    authenticate: () => 'someone',
    logger: pino({ level: 'silent' }),
    observe: (method, route, status, seconds) => {
      if (!(seconds >= 0)) throw new Error('seconds must be a duration');
      observed.push([method, route, status]);
    },
    routes: [
      { method: 'GET', path: '/throws', schema: 'empty', auth: 'none', handler: () => { throw new Error('sync'); } },
      { method: 'GET', path: '/rejects', schema: 'empty', auth: 'none', handler: () => Promise.reject(new Error('async')) },
      { method: 'GET', path: '/nothing', schema: 'empty', auth: 'none', handler: () => undefined as unknown as Record<string, unknown> },
      { method: 'GET', path: '/unserialisable', schema: 'empty', auth: 'none', handler: async () => ({ big: 1n }) },
      { method: 'POST', path: '/unserialisable', schema: 'empty', auth: 'none', handler: () => ({ big: 1n }) },
      { method: 'GET', path: '/items/{id:int}', schema: 'empty', auth: 'none', handler: (req) => ({ id: req.params.id }) },
      {
        method: 'GET', path: '/gate', schema: 'empty', auth: 'none',
        handler: () => new Promise((resolve) => { openGate = () => resolve({ gate: 'open' }); }),
      },
    ],
  });
  const port = await freePort();
  await front.listen('127.0.0.1', port);
  t.teardown(() => {
    front.stopAccepting();
    front.closeConnections();
  });
  const url = (path: string) => `http://127.0.0.1:${port}/api/v1${path}`;
  const envelope500 = { result: 'error', msg: 'Internal server error', code: 'INTERNAL_SERVER_ERROR' };

  for (const method of ['GET', 'HEAD']) {
    const thrown = await fetch(url('/throws'), { method });
    t.equal(thrown.status, 500, `${method}: a handler that throws synchronously gets 500`);
    const rejected = await fetch(url('/rejects'), { method });
    t.equal(rejected.status, 500, `${method}: a handler that rejects gets 500`);
    if (method === 'GET') t.same(await rejected.json(), envelope500);
  }
  const nothing = await fetch(url('/nothing'));
  t.same([nothing.status, await nothing.json()], [200, { result: 'success', msg: '' }], 'a handler that returns nothing: an empty success');
  const lateBad = await fetch(url('/unserialisable'));
  t.same([lateBad.status, await lateBad.json()], [500, envelope500], 'an answer that cannot be serialised after an await: 500, not an unhandled rejection');
  const bad = await fetch(url('/unserialisable'), { method: 'POST' });
  t.equal(bad.status, 500, 'and synchronously');

  // A request sent while an asynchronous one is pending on the same connection waits its turn.
  const gated = await new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.on('error', reject);
    socket.on('close', () => resolve(data));
    socket.on('data', (chunk) => {
      data += chunk.toString();
      if ((data.match(/HTTP\/1\.1 /g) ?? []).length === 2 && data.endsWith('}')) socket.end();
    });
    socket.write('GET /api/v1/gate HTTP/1.1\r\nHost: x\r\n\r\n', () => {
      const wait = setInterval(() => {
        if (!openGate) return;
        clearInterval(wait);
        // The gate handler is pending: pipeline the next request, then let the first finish.
        socket.write('GET /api/v1/items/7 HTTP/1.1\r\nHost: x\r\n\r\n', () => setTimeout(() => openGate!(), 20));
      }, 2);
    });
  });
  t.match(gated, /^HTTP\/1\.1 200 OK[\s\S]*"gate":"open"\}HTTP\/1\.1 200 OK[\s\S]*"id":7\}$/, 'both answered, in order');

  const before = observed.length;
  await fetch(url('/items/12'));
  await fetch(url('/nowhere'));
  await fetch(url('/items/12'), { method: 'DELETE' });
  t.same(observed.slice(before), [
    ['GET', '/items/{id:int}', 200],
    ['GET', 'unmatched', 404],
    ['DELETE', '/items/{id:int}', 405],
  ], 'the observer hears each answer once, with the route pattern');
  await front.idle();
  t.pass('nothing left in flight');
});
