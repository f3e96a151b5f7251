/** Event-queue clients for the benchmarks: registering queues, long-poll loops, and bare parked requests on raw sockets. */
import { connect, type Socket } from 'node:net';

export async function registerQueue(url: string, authorization: string, params: Record<string, string>): Promise<string> {
  const response = await fetch(`${url}/api/v1/register`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params).toString(),
  });
  const body = (await response.json()) as { queue_id?: string; msg?: string };
  if (!body.queue_id) throw new Error(`register failed: ${body.msg}`);
  return body.queue_id;
}

const MESSAGE_MARK = '"type":"message","message":{"id":';
const LAST_ID = /"id":(\d+)\}\](?:,"queue_id"|\})/;

/**
 * A client that long-polls its queue over one kept-alive socket and re-polls as soon as it
 * is answered, noting when each message arrives. Raw HTTP keeps the client's own cost low, so
 * that a hundred of them measure the server rather than themselves. A connection the server
 * closes is opened again and the poll repeated from the last event read, as Zulip's clients
 * do (the queue keeps what was not acknowledged); `reconnects` counts them, for the report.
 */
export class LongPoller {
  private running = true;
  private lastEventId = -1;
  readonly arrivals = new Map<number, number>();
  /** Body bytes of every answer so far. */
  bytes = 0;
  /** Connections closed by the server while a poll was waiting, each opened again. */
  reconnects = 0;
  /** The error the server answered a poll with (its queue dropped), after which this poller stopped. */
  refused: string | undefined;
  private socket: Socket | undefined;
  private pending: Buffer = Buffer.alloc(0);

  constructor(
    private readonly port: number,
    private readonly authorization: string,
    private readonly queueId: string,
  ) {}

  start(): void {
    const socket = connect(this.port, '127.0.0.1');
    this.socket = socket;
    this.pending = Buffer.alloc(0);
    let answered = false;
    socket.setNoDelay(true);
    socket.on('data', (chunk) => {
      answered = true;
      this.onData(chunk);
    });
    // The close that follows an error reconnects; the error itself needs no handling.
    socket.on('error', () => {});
    socket.on('close', () => {
      if (!this.running || this.socket !== socket) return;
      this.reconnects++;
      // A connection closed before any answer (a server gone or refusing) is tried again after a
      // pause, so that a dead server does not turn the pollers into a busy loop on the client's core.
      if (answered) this.start();
      else setTimeout(() => this.running && this.start(), 100);
    });
    this.poll();
  }

  private poll(): void {
    if (!this.running) return;
    const path = `/api/v1/events?queue_id=${this.queueId}&last_event_id=${this.lastEventId}`;
    this.socket!.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${this.authorization}\r\n\r\n`);
  }

  private onData(chunk: Buffer): void {
    const data = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    const head = data.indexOf('\r\n\r\n');
    if (head < 0) {
      this.pending = data;
      return;
    }
    const length = Number(/content-length:\s*(\d+)/i.exec(data.subarray(0, head).toString('latin1'))?.[1] ?? 0);
    if (data.length - head - 4 < length) {
      this.pending = data;
      return;
    }
    // Scanned rather than parsed: the events' shape is known, and the client's cost is not what we measure.
    const body = data.toString('utf8', head + 4, head + 4 + length);
    this.pending = data.subarray(head + 4 + length);
    this.bytes += length;
    if (body.startsWith('{"result":"error"')) {
      // The queue is gone (dropped by the server, for one: more events waiting than it keeps).
      // Asking again gets the same error at once, a busy loop on the client's core: stop, and say so.
      this.refused = body.slice(0, 200);
      this.running = false;
      return;
    }
    const now = performance.now();
    for (let at = body.indexOf(MESSAGE_MARK); at >= 0; at = body.indexOf(MESSAGE_MARK, at + 1)) {
      this.arrivals.set(Number.parseInt(body.slice(at + MESSAGE_MARK.length, at + MESSAGE_MARK.length + 20), 10), now);
    }
    const last = LAST_ID.exec(body);
    if (last) this.lastEventId = Math.max(this.lastEventId, Number(last[1]));
    this.poll();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.socket?.destroy();
  }
}

/**
 * Many parked requests, one socket each, all parked before the measured moment, so that a round
 * measures answering rather than connecting. The same client for Parley and the baseline; per
 * answer it does as little as it can (one scan of the chunk, no parsing).
 */
export class ParkedClients {
  private readonly answeredAt: Float64Array;
  private readonly lastEventIds: Int32Array;
  private readonly pending: Array<Buffer | undefined>;
  private outstanding = 0;
  private bodyBytes = 0;
  private finish: (() => void) | undefined;
  private fail: ((error: Error) => void) | undefined;

  private readonly sockets: Socket[] = [];

  /**
   * Every round opens fresh sockets (uWS closes a connection idle for ~10 s, and one process
   * cannot hold 20,000 sockets under the usual limit of open files); only the event ids carry over.
   */
  constructor(
    private readonly port: number,
    private readonly count: number,
  ) {
    this.answeredAt = new Float64Array(count);
    this.lastEventIds = new Int32Array(count).fill(-1);
    this.pending = new Array(count);
  }

  get size(): number {
    return this.count;
  }

  /** The highest event id seen in socket i's answers (-1 before any). */
  lastEventId(i: number): number {
    return this.lastEventIds[i];
  }

  /**
   * Sends one request on every socket (opening them the first time, a batch at a time, so the
   * server's listen backlog never overflows: a dropped SYN costs a second). `sent` resolves once
   * every request is written, `answered` once every one is answered.
   */
  park(request: (i: number) => string, batch = 250): { sent: Promise<void>; answered: Promise<void> } {
    this.close();
    this.outstanding = this.count;
    this.bodyBytes = 0;
    this.answeredAt.fill(0);
    const answered = new Promise<void>((resolve, reject) => {
      this.finish = resolve;
      this.fail = reject;
    });
    // Awaited later (after the trigger); a failure before then must not count as unhandled.
    answered.catch(() => {});
    const sent = (async () => {
      for (let start = 0; start < this.count; start += batch) {
        await Promise.all(Array.from({ length: Math.min(batch, this.count - start) }, (_, k) => new Promise<void>((resolve, reject) => {
          const i = start + k;
          const socket = connect(this.port, '127.0.0.1', () => {
            socket.write(request(i));
            resolve();
          });
          socket.setNoDelay(true);
          let failure: Error | undefined;
          socket.once('error', reject);
          socket.on('error', (error) => (failure = error));
          // A connection closed before its answer would leave the round waiting forever.
          socket.on('close', () => {
            if (this.sockets[i] === socket && this.outstanding > 0 && this.answeredAt[i] === 0) {
              this.fail?.(new Error(`parked connection ${i} to port ${this.port} closed before its answer${failure ? `: ${failure.message}` : ''}`));
            }
          });
          socket.on('data', (chunk: Buffer) => this.onData(i, chunk));
          this.sockets[i] = socket;
        })));
      }
    })();
    return { sent, answered };
  }

  /** When the last answer of the round arrived (performance.now()). */
  get lastAnswerAt(): number {
    return this.answeredAt.reduce((a, b) => Math.max(a, b), 0);
  }

  get averageBodyBytes(): number {
    return Math.round(this.bodyBytes / this.count);
  }

  private onData(i: number, chunk: Buffer): void {
    const previous = this.pending[i];
    const data = previous ? Buffer.concat([previous, chunk]) : chunk;
    const head = data.indexOf('\r\n\r\n');
    if (head < 0) {
      this.pending[i] = data;
      return;
    }
    const length = Number(/content-length:\s*(\d+)/i.exec(data.toString('latin1', 0, head))?.[1] ?? 0);
    if (data.length - head - 4 < length) {
      this.pending[i] = data;
      return;
    }
    this.pending[i] = undefined;
    this.answeredAt[i] = performance.now();
    this.bodyBytes += length;
    const last = LAST_ID.exec(data.toString('latin1', head + 4, head + 4 + length));
    if (last) this.lastEventIds[i] = Math.max(this.lastEventIds[i], Number(last[1]));
    if (--this.outstanding === 0) this.finish?.();
  }

  /** Closes every socket with a reset, so tens of thousands of closed connections leave no TIME_WAIT behind. */
  close(): void {
    this.outstanding = 0;
    for (const socket of this.sockets) socket.resetAndDestroy();
    this.sockets.length = 0;
  }
}

/** One kept-alive socket for single requests whose timing matters (no connection set-up in the measured time). */
export class RawClient {
  private buffer = Buffer.alloc(0);
  /** Chunks of a large answer still arriving, and their total size: joined once it is whole. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private needed = 0;
  private waiting: ((answer: { status: number; body: string }) => void) | undefined;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      // Joining every chunk onto the buffer copies a large answer (POST /register: megabytes)
      // once per chunk, which the client's time then counts; chunks wait until the answer is whole.
      if (this.pendingBytes + chunk.length < this.needed) {
        this.pending.push(chunk);
        this.pendingBytes += chunk.length;
        return;
      }
      this.buffer = Buffer.concat([this.buffer, ...this.pending, chunk]);
      this.pending = [];
      this.pendingBytes = 0;
      this.needed = 0;
      const head = this.buffer.indexOf('\r\n\r\n');
      if (head < 0) return;
      const header = this.buffer.toString('latin1', 0, head);
      const length = Number(/content-length:\s*(\d+)/i.exec(header)?.[1] ?? 0);
      if (this.buffer.length - head - 4 < length) {
        this.needed = head + 4 + length - this.buffer.length;
        return;
      }
      const body = this.buffer.toString('utf8', head + 4, head + 4 + length);
      this.buffer = this.buffer.subarray(head + 4 + length);
      const resolve = this.waiting;
      this.waiting = undefined;
      resolve?.({ status: Number(header.split(' ')[1]), body });
    });
  }

  static open(port: number): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve(new RawClient(socket)));
      socket.setNoDelay(true);
      socket.once('error', reject);
    });
  }

  /** Writes a whole request; resolves with its answer. */
  request(text: string): Promise<{ status: number; body: string }> {
    const answer = new Promise<{ status: number; body: string }>((resolve) => (this.waiting = resolve));
    this.socket.write(text);
    return answer;
  }

  close(): void {
    this.socket.destroy();
  }
}
