/**
 * The baseline: a bare uWebSockets.js server answering a fixed small JSON body (GET or POST,
 * reading the body), and holding parked responses until told to answer them all at once.
 * Run as its own process, like Parley, so both are measured the same way.
 */
import { loadUws } from '../src/http/native.js';

const uws = loadUws();
const BODY = '{"result":"success","msg":""}';
const parked = new Set<import('@trufflesuite/uws-js-unofficial').HttpResponse>();

const app = uws.App();
app.get('/park', (res) => {
  res.onAborted(() => parked.delete(res));
  parked.add(res);
});
app.get('/parked', (res) => {
  res.writeHeader('Content-Type', 'application/json').end(String(parked.size));
});
app.post('/release', (res) => {
  res.onAborted(() => {});
  const held = [...parked];
  parked.clear();
  for (const waiting of held) waiting.cork(() => waiting.writeHeader('Content-Type', 'application/json').end(BODY));
  res.cork(() => res.writeHeader('Content-Type', 'application/json').end(String(held.length)));
});
app.get('/*', (res) => {
  res.writeHeader('Content-Type', 'application/json').end(BODY);
});
app.any('/*', (res) => {
  res.onAborted(() => {});
  // Read (and drop) any body, as a real endpoint must, then answer.
  res.onData((_chunk, isLast) => {
    if (isLast) res.cork(() => res.writeHeader('Content-Type', 'application/json').end(BODY));
  });
});
app.listen('127.0.0.1', Number(process.env.BARE_PORT), (socket) => {
  if (!socket) process.exit(1);
  process.stdout.write(`bare uWS listening on ${process.env.BARE_PORT}\n`);
});
process.on('SIGTERM', () => process.exit(0));
