/**
 * The baseline: a bare uWebSockets.js server answering every request with a JSON body of the
 * size the client asks for (`X-Bare-Bytes`, so it matches Parley's answer), reading POST bodies,
 * and holding parked responses until told to answer them all, the fastest way uWS can.
 * Run as its own process on the server's core, like Parley, so both are measured the same way.
 */
import type { HttpResponse } from '@trufflesuite/uws-js-unofficial';
import { loadUws } from '../src/http/native.js';

const uws = loadUws();
const SMALL = '{"result":"success","msg":""}';
const bodies = new Map<number, string>();
const parked = new Set<HttpResponse>();

/** A valid JSON answer of exactly `bytes` bytes (at least the small one). */
function bodyOf(bytes: number): string {
  if (!(bytes > SMALL.length + 10)) return SMALL;
  let body = bodies.get(bytes);
  if (body === undefined) {
    const head = '{"result":"success","msg":"","pad":"';
    body = head + 'x'.repeat(bytes - head.length - 2) + '"}';
    bodies.set(bytes, body);
  }
  return body;
}

const sizeOf = (value: string) => Number(value) || 0;

function answerAll(bytes: number): number {
  const body = bodyOf(bytes);
  const held = [...parked];
  parked.clear();
  // Each answer in its own cork: one send() per response. (uWS corks one socket at a time, so
  // answering from inside another request's handler, where that request's socket is corked,
  // writes every answer uncorked, piece by piece; that made the old baseline slower than Parley.)
  for (const waiting of held) waiting.cork(() => waiting.writeHeader('Content-Type', 'application/json').end(body));
  return held.length;
}

const app = uws.App();
app.get('/park', (res) => {
  res.onAborted(() => parked.delete(res));
  parked.add(res);
});
app.get('/parked', (res) => {
  res.writeHeader('Content-Type', 'application/json').end(String(parked.size));
});
app.get('/release', (res, req) => {
  const bytes = sizeOf(req.getQuery('bytes') ?? '');
  let aborted = false;
  res.onAborted(() => (aborted = true));
  // Out of this handler first: inside it, this socket holds the one cork.
  setImmediate(() => {
    const count = answerAll(bytes);
    if (!aborted) res.cork(() => res.writeHeader('Content-Type', 'application/json').end(String(count)));
  });
});
app.get('/*', (res, req) => {
  res.writeHeader('Content-Type', 'application/json').end(bodyOf(sizeOf(req.getHeader('x-bare-bytes'))));
});
app.any('/*', (res, req) => {
  const body = bodyOf(sizeOf(req.getHeader('x-bare-bytes')));
  res.onAborted(() => {});
  // Read (and drop) the body, as a real endpoint must, then answer.
  res.onData((_chunk, isLast) => {
    if (isLast) res.cork(() => res.writeHeader('Content-Type', 'application/json').end(body));
  });
});
app.listen('127.0.0.1', Number(process.env.BARE_PORT), (socket) => {
  if (!socket) process.exit(1);
  process.stdout.write(`bare uWS listening on ${process.env.BARE_PORT}\n`);
});
process.on('SIGTERM', () => process.exit(0));
