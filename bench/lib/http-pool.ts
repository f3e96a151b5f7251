/**
 * Kept-alive raw HTTP/1.1 connections shared by many simulated people: a request takes an idle
 * connection (opening another while under the cap) or waits for one. Raw sockets and a scan of
 * the head keep the client's cost per request small; answers must carry Content-Length (uWS does).
 */
import { frameResponse } from './http-response.js';
import { connect, type Socket } from 'node:net';

export interface Answer {
  status: number;
  body: string;
}

type Callback = (error: Error | undefined, answer: Answer | undefined) => void;

class Connection {
  private buffer: Buffer | undefined;
  private callback: Callback | undefined;
  readonly socket: Socket;
  closed = false;
  /** When it last became idle (performance.now()). */
  idleSince = 0;

  constructor(port: number, private readonly onIdle: (connection: Connection) => void, onClose: (connection: Connection) => void) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.setNoDelay(true);
    this.socket.on('data', (chunk: Buffer) => this.onData(chunk));
    this.socket.on('error', () => {});
    this.socket.on('close', () => {
      this.closed = true;
      const callback = this.callback;
      this.callback = undefined;
      callback?.(new Error('connection closed before the answer'), undefined);
      onClose(this);
    });
  }

  send(text: string, callback: Callback): void {
    this.callback = callback;
    this.socket.write(text);
  }

  private onData(chunk: Buffer): void {
    const data = this.buffer ? Buffer.concat([this.buffer, chunk]) : chunk;
    const framed = frameResponse(data);
    if (!framed) {
      this.buffer = data;
      return;
    }
    this.buffer = framed.rest;
    const callback = this.callback;
    this.callback = undefined;
    this.onIdle(this);
    callback?.(undefined, { status: framed.status, body: framed.body });
  }
}

const IDLE_REUSE_MS = 5000;

export class HttpPool {
  private readonly idle: Connection[] = [];
  private readonly waiting: Array<[string, Callback]> = [];
  private open = 0;

  constructor(
    private readonly port: number,
    private readonly maxConnections: number,
  ) {}

  /** Connections opened and alive. */
  get size(): number {
    return this.open;
  }

  /** Sends a whole request (`text`, head and body) and calls back with the answer. */
  request(text: string, callback: Callback): void {
    let connection = this.idle.pop();
    // uWS closes a connection idle for ~10 s; one idle for half that is not reused, so that a
    // request never races the server's close (which a real client would retry).
    while (connection && (connection.closed || performance.now() - connection.idleSince > IDLE_REUSE_MS)) {
      connection.socket.destroy();
      connection = this.idle.pop();
    }
    if (connection) return connection.send(text, callback);
    if (this.open < this.maxConnections) {
      this.open++;
      new Connection(this.port, (c) => this.release(c), (c) => this.dropped(c)).send(text, callback);
      return;
    }
    this.waiting.push([text, callback]);
  }

  private release(connection: Connection): void {
    const next = this.waiting.shift();
    if (next) {
      // After the current answer's callback has run, so that answers stay in order per connection.
      queueMicrotask(() => connection.send(next[0], next[1]));
      return;
    }
    connection.idleSince = performance.now();
    this.idle.push(connection);
  }

  private dropped(connection: Connection): void {
    this.open--;
    const at = this.idle.indexOf(connection);
    if (at >= 0) this.idle.splice(at, 1);
  }

  close(): void {
    for (const connection of this.idle) connection.socket.destroy();
    this.idle.length = 0;
  }
}

/** The text of a request with the headers a Zulip client sends. */
export function requestText(method: string, path: string, authorization: string, body?: string): string {
  if (body === undefined) return `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${authorization}\r\n\r\n`;
  return `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${authorization}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}
