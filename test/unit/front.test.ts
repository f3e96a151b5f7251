/** The HTTP front on a real uWS socket with routes of its own: unexpected errors, late answers, disconnects. */
import { test } from 'tap';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request as httpRequest } from 'node:http';
import { pino } from 'pino';
import { HttpFront } from '../../src/http/front.js';
import { loadUws } from '../../src/http/native.js';
import { loadValidators } from '../../src/http/validation.js';
import { Deferred } from '../../src/http/result.js';
import { ApiError } from '../../src/domain/errors.js';
import { freePort } from '../helpers/server.js';

test('front: 500 for unexpected errors, deferred answers, aborted clients', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-front-'));
  writeFileSync(join(dir, 'empty.json'), JSON.stringify({ $id: 'empty', type: 'object', properties: {} }));
  let parked: Deferred | undefined;
  let aborted = 0;
  const logged: unknown[] = [];
  const logger = pino({ level: 'error' }, { write: (line: string) => logged.push(JSON.parse(line)) });
  const front = new HttpFront<string>({
    uws: loadUws(),
    validators: loadValidators(dir),
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
  await new Promise<void>((resolve) => {
    const req = httpRequest(url('/park'));
    req.on('error', () => resolve());
    req.end();
    const wait = setInterval(() => {
      if (parked) {
        clearInterval(wait);
        req.destroy();
        setTimeout(resolve, 50);
      }
    }, 5);
  });
  t.equal(aborted, 1, 'onAbort ran');
  parked!.resolve({ events: [] });
  t.pass('resolving after the abort is harmless');
  await front.idle();
  t.pass('an aborted request is not counted in flight');
});
