/**
 * The baseline: a bare uWebSockets.js server answering every request with a JSON body of the
 * size the client asks for (`X-Bare-Bytes`, so it matches Parley's answer; bytes prepared once per
 * size), reading POST bodies, and holding parked responses until told to answer them all, the
 * fastest way uWS can. With
 * `X-Bare-Fanout`, POST /api/v1/messages is a minimal event server for the `send` baseline: each
 * message goes to every queue that has polled GET /api/v1/events, answering the parked polls.
 * Run as its own process on the server's core, like Parley, so both are measured the same way.
 */
import type { HttpResponse } from '@trufflesuite/uws-js-unofficial';
import { loadUws } from '../src/http/native.js';

const uws = loadUws();
const SMALL = '{"result":"success","msg":""}';
const SMALL_BYTES = Buffer.from(SMALL);
/** Answers by size, kept as bytes: Parley sends its large lists as bytes prepared once, so must the limit. */
const bodies = new Map<number, Buffer>();
const parked = new Set<HttpResponse>();

/** A valid JSON answer of exactly `bytes` bytes (at least the small one), encoded once. */
function bodyOf(bytes: number): Buffer {
  if (!(bytes > SMALL.length + 10)) return SMALL_BYTES;
  let body = bodies.get(bytes);
  if (body === undefined) {
    const head = '{"result":"success","msg":"","pad":"';
    body = Buffer.from(head + 'x'.repeat(bytes - head.length - 2) + '"}');
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

/** A queue of the minimal event server: its parked poll and the message ids it has not been answered. */
interface Queue {
  parked: HttpResponse | undefined;
  pending: number[];
  eventId: number;
}
const queues = new Map<string, Queue>();
let nextMessageId = 1;
/** Bytes of one message event, as the sender says Parley's are (`X-Bare-Event-Bytes`). */
let eventBytes = 0;
const pads = new Map<number, string>();

/** A Zulip-shaped events answer: each pending message as an event of `eventBytes` bytes, the event id last. */
function eventsBody(queue: Queue): string {
  const events = queue.pending.map((id) => {
    const head = `{"type":"message","message":{"id":${id},"pad":"`;
    const tail = `"},"id":${++queue.eventId}}`;
    const size = Math.max(0, eventBytes - head.length - tail.length - 1);
    let pad = pads.get(size);
    if (pad === undefined) pads.set(size, (pad = 'x'.repeat(size)));
    return head + pad + tail;
  });
  queue.pending = [];
  return `{"result":"success","msg":"","events":[${events.join(',')}],"queue_id":"bare"}`;
}

function answerQueue(queue: Queue): void {
  const waiting = queue.parked!;
  queue.parked = undefined;
  waiting.cork(() => waiting.writeHeader('Content-Type', 'application/json').end(eventsBody(queue)));
}

const app = uws.App();
app.get('/api/v1/events', (res, req) => {
  const id = req.getQuery('queue_id') ?? '';
  let queue = queues.get(id);
  if (!queue) queues.set(id, (queue = { parked: undefined, pending: [], eventId: -1 }));
  if (queue.pending.length) {
    res.writeHeader('Content-Type', 'application/json').end(eventsBody(queue));
    return;
  }
  const held = queue;
  res.onAborted(() => (held.parked = undefined));
  held.parked = res;
});
app.post('/api/v1/messages', (res, req) => {
  const bytes = sizeOf(req.getHeader('x-bare-bytes'));
  const fanout = req.getHeader('x-bare-fanout') !== '';
  const perEvent = sizeOf(req.getHeader('x-bare-event-bytes'));
  let aborted = false;
  res.onAborted(() => (aborted = true));
  res.onData((_chunk, isLast) => {
    if (!isLast) return;
    if (!fanout) {
      res.cork(() => res.writeHeader('Content-Type', 'application/json').end(bodyOf(bytes)));
      return;
    }
    // Out of this handler first, as /release (each parked answer in its own cork).
    setImmediate(() => {
      const id = nextMessageId++;
      eventBytes = perEvent;
      for (const queue of queues.values()) {
        queue.pending.push(id);
        if (queue.parked) answerQueue(queue);
      }
      if (aborted) return;
      const head = `{"result":"success","msg":"","id":${id}`;
      const pad = Math.max(0, bytes - head.length - 10);
      res.cork(() => res.writeHeader('Content-Type', 'application/json').end(`${head},"pad":"${'x'.repeat(pad)}"}`));
    });
  });
});
app.get('/park', (res) => {
  res.onAborted(() => parked.delete(res));
  parked.add(res);
});
// The send baseline's queues: how many have a poll parked, and forgetting them all between rounds.
app.get('/queues/parked', (res) => {
  let count = 0;
  for (const queue of queues.values()) if (queue.parked) count++;
  res.writeHeader('Content-Type', 'application/json').end(String(count));
});
app.del('/queues', (res) => {
  for (const queue of queues.values()) queue.parked?.close();
  queues.clear();
  res.writeHeader('Content-Type', 'application/json').end('{}');
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
