/**
 * The live connection: POST /register, then GET /events long-polls in a loop. A network failure
 * (or a server restart) retries the same poll with the same last_event_id, so nothing is lost or
 * repeated; BAD_EVENT_QUEUE_ID (the queue expired or was lost) registers again and hands the new
 * state over whole, for the caller to reload from.
 */
import type { ServerEvent } from './types.js';

export interface Registration {
  queue_id: string;
  last_event_id: number;
  [field: string]: unknown;
}

export interface QueueTransport {
  register(): Promise<Registration>;
  poll(queueId: string, lastEventId: number, signal: AbortSignal): Promise<ServerEvent[]>;
}

export interface QueueHandlers {
  /** A (new) registration: the first, or after the queue was lost. */
  onRegistered(registration: Registration, again: boolean): void;
  onEvents(events: ServerEvent[]): void;
  /** Connected or not: shown to the user. */
  onStatus(status: 'connected' | 'reconnecting'): void;
}

/** An error the transport throws: the API's `code` when there was an answer, none for a network failure. */
export interface TransportError {
  code?: string;
  status?: number;
}

export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

const defaultSleep: Sleep = (ms, signal) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/** Waits after the n-th failure in a row: 0.5 s doubling up to 10 s. */
export function backoff(failures: number): number {
  return Math.min(10_000, 500 * 2 ** Math.max(0, failures - 1));
}

export class EventQueue {
  queueId = '';
  lastEventId = -1;
  private readonly stopper = new AbortController();
  private running = false;

  constructor(
    private readonly transport: QueueTransport,
    private readonly handlers: QueueHandlers,
    private readonly sleep: Sleep = defaultSleep,
  ) {}

  /** Registers (retrying until it works or the queue is stopped), then polls until stopped. */
  async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    let failures = 0;
    let registered = false;
    while (!this.stopper.signal.aborted) {
      try {
        if (!this.queueId) {
          const registration = await this.transport.register();
          if (this.stopper.signal.aborted) break;
          this.queueId = registration.queue_id;
          this.lastEventId = registration.last_event_id;
          this.handlers.onRegistered(registration, registered);
          registered = true;
          this.handlers.onStatus('connected');
          failures = 0;
        }
        const events = await this.transport.poll(this.queueId, this.lastEventId, this.stopper.signal);
        if (this.stopper.signal.aborted) break;
        if (failures > 0) this.handlers.onStatus('connected');
        failures = 0;
        const fresh = events.filter((e) => e.id > this.lastEventId);
        for (const e of events) if (e.id > this.lastEventId) this.lastEventId = e.id;
        const useful = fresh.filter((e) => e.type !== 'heartbeat');
        if (useful.length) this.handlers.onEvents(useful);
      } catch (error) {
        if (this.stopper.signal.aborted) break;
        const code = (error as TransportError).code;
        if (code === 'BAD_EVENT_QUEUE_ID') {
          this.queueId = '';
          continue;
        }
        if (code === 'UNAUTHORIZED' || (error as TransportError).status === 401) throw error;
        failures++;
        if (failures === 1) this.handlers.onStatus('reconnecting');
        await this.sleep(backoff(failures), this.stopper.signal);
      }
    }
    this.running = false;
  }

  stop(): void {
    this.stopper.abort();
  }
}
