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
 * that a hundred of them measure the server rather than themselves.
 */
export class LongPoller {
  private running = true;
  private lastEventId = -1;
  readonly arrivals = new Map<number, number>();
  private socket: Socket | undefined;
  private pending: Buffer = Buffer.alloc(0);

  constructor(
    private readonly port: number,
    private readonly authorization: string,
    private readonly queueId: string,
  ) {}

  start(): void {
    this.socket = connect(this.port, '127.0.0.1');
    this.socket.setNoDelay(true);
    this.socket.on('data', (chunk) => this.onData(chunk));
    this.socket.on('error', () => {});
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

/** One request on its own socket, answered when the server decides (a parked long-poll). */
export class ParkedRequest {
  private readonly socket: Socket;
  answeredAt = 0;
  private buffer = '';
  readonly answered: Promise<void>;

  constructor(port: number, path: string, authorization?: string) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.setNoDelay(true);
    const auth = authorization ? `Authorization: ${authorization}\r\n` : '';
    this.socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}\r\n`);
    this.answered = new Promise((resolve, reject) => {
      this.socket.on('data', (chunk) => {
        this.buffer += chunk.toString('latin1');
        const head = this.buffer.indexOf('\r\n\r\n');
        if (head < 0) return;
        const length = Number(/content-length:\s*(\d+)/i.exec(this.buffer.slice(0, head))?.[1] ?? 0);
        if (this.buffer.length - head - 4 >= length) {
          this.answeredAt = performance.now();
          resolve();
        }
      });
      this.socket.on('error', reject);
    });
  }

  close(): void {
    this.socket.destroy();
  }
}
