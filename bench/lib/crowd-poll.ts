/**
 * A simulated person's parked long-poll: one raw socket, re-polled as soon as it is answered,
 * the answer scanned (not parsed) for message ids and the last event id. Cheap per person, so
 * one process can hold thousands.
 */
import { frameResponse } from './http-response.js';
import { connect, type Socket } from 'node:net';

const MESSAGE_MARK = '"type":"message","message":{"id":';
const LAST_ID = /"id":(\d+)\}\](?:,"queue_id"|\})/;

export interface PollListener {
  /** A message event for `id` arrived. */
  message(id: number): void;
  /** An answer arrived (`bytes` of body). */
  answered(bytes: number): void;
  /** The poll failed: an error answer (polling stops) or a dropped connection (it reconnects). */
  failed(reason: string): void;
}

export class Poll {
  private socket: Socket | undefined;
  private buffer: Buffer | undefined;
  private lastEventId = -1;
  private running = true;

  constructor(
    private readonly port: number,
    private readonly authorization: string,
    private readonly queueId: string,
    private readonly listener: PollListener,
  ) {
    this.open();
  }

  private open(): void {
    const socket = connect(this.port, '127.0.0.1');
    this.socket = socket;
    this.buffer = undefined;
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', () => {});
    socket.on('close', () => {
      if (!this.running || this.socket !== socket) return;
      this.listener.failed('poll connection closed by the server');
      this.open();
    });
    this.poll();
  }

  private poll(): void {
    this.socket!.write(`GET /api/v1/events?queue_id=${this.queueId}&last_event_id=${this.lastEventId} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${this.authorization}\r\n\r\n`);
  }

  private onData(chunk: Buffer): void {
    const data = this.buffer ? Buffer.concat([this.buffer, chunk]) : chunk;
    const framed = frameResponse(data);
    if (!framed) {
      this.buffer = data;
      return;
    }
    this.buffer = undefined;
    const { status, body, bytes: length } = framed;
    if (status !== 200) {
      this.running = false;
      this.socket?.destroy();
      this.listener.failed(`poll answered ${status}: ${body.slice(0, 200)}`);
      return;
    }
    this.listener.answered(length);
    for (let at = body.indexOf(MESSAGE_MARK); at >= 0; at = body.indexOf(MESSAGE_MARK, at + 1)) {
      this.listener.message(Number.parseInt(body.slice(at + MESSAGE_MARK.length, at + MESSAGE_MARK.length + 20), 10));
    }
    const last = LAST_ID.exec(body);
    if (last) this.lastEventId = Math.max(this.lastEventId, Number(last[1]));
    else if (!body.includes('"events":[]')) {
      // An event whose id is not its last field: parse, rather than acknowledge nothing and be answered the same events again.
      const events = (JSON.parse(body) as { events?: Array<{ id: number }> }).events ?? [];
      for (const event of events) this.lastEventId = Math.max(this.lastEventId, event.id);
    }
    this.poll();
  }

  stop(): void {
    this.running = false;
    this.socket?.destroy();
  }
}
