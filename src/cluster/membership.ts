/**
 * Which nodes are alive and caught up (docs/cluster.md, "Spreading organizations"): each node puts
 * a heartbeat into the KV bucket `parley_nodes` (3 replicas, entries expire after a lease) every
 * third of a lease, saying whether it has applied every organization's stream to its tail; every
 * node watches the bucket (no listing) and counts a node live while its last heartbeat arrived
 * less than two heartbeats and a bit ago. The placement of organizations is computed from that.
 */
import { StorageType } from '@nats-io/jetstream';
import { Kvm, type KV, type KvWatchEntry } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from 'pino';
import { retry } from './streams.js';

export const NODES_BUCKET = 'parley_nodes';
const KEY_PREFIX = 'node_';

/** What a heartbeat says. */
export interface Heartbeat {
  /** Whether the node has applied every organization it follows up to the stream's tail it found. */
  caughtUp: boolean;
}

interface Seen {
  caughtUp: boolean;
  /** When its last heartbeat arrived (this node's clock). */
  at: number;
}

export function openNodesBucket(nc: NatsConnection, leaseMs: number): Promise<KV> {
  return retry(() => new Kvm(nc).create(NODES_BUCKET, { replicas: 3, history: 1, ttl: leaseMs, storage: StorageType.File }));
}

export class Membership {
  private readonly seen = new Map<string, Seen>();
  private timer: NodeJS.Timeout | undefined;
  private watching: Promise<void> | undefined;
  private stopped = false;
  private stopWatch: (() => void) | undefined;

  constructor(
    private readonly bucket: KV,
    private readonly node: string,
    private readonly leaseMs: number,
    /** This node's own state, read at each heartbeat. */
    private readonly state: () => Heartbeat,
    private readonly logger: Logger,
  ) {}

  /** Starts the heartbeats and the watch. */
  start(): void {
    void this.beat();
    this.timer = setInterval(() => void this.beat(), Math.max(100, Math.floor(this.leaseMs / 3)));
    this.watch();
  }

  /** A heartbeat now (also when this node's state changed, so that the others learn it at once). */
  async beat(): Promise<void> {
    if (this.stopped) return;
    await this.bucket.put(KEY_PREFIX + this.node, JSON.stringify(this.state())).catch((error: unknown) => this.logger.warn({ err: error }, 'cluster: heartbeat not stored'));
    if (!this.watching) this.watch();
  }

  /** The watch, started again at the next heartbeat when it ends (a lost connection). */
  private watch(): void {
    if (this.stopped) return;
    this.watching = (async () => {
      const updates = await this.bucket.watch();
      this.stopWatch = () => updates.stop();
      for await (const entry of updates) this.saw(entry);
    })()
      .catch((error: unknown) => this.logger.warn({ err: error }, 'cluster: watching the nodes stopped; it starts again'))
      .finally(() => (this.watching = undefined));
  }

  private saw(entry: KvWatchEntry): void {
    if (!entry.key.startsWith(KEY_PREFIX)) return;
    const node = entry.key.slice(KEY_PREFIX.length);
    if (entry.operation !== 'PUT') return void this.seen.delete(node);
    const beat = JSON.parse(entry.string()) as Heartbeat;
    // An entry the watch delivers first may be old: its age on the server's clock counts (bounded by a lease).
    const age = entry.isUpdate ? 0 : Math.min(this.leaseMs, Math.max(0, Date.now() - entry.created.getTime()));
    this.seen.set(node, { caughtUp: beat.caughtUp === true, at: performance.now() - age });
  }

  /**
   * The nodes live and caught up now, this one included when it is caught up. Live: a heartbeat
   * in the last two heartbeat periods and a quarter of a lease (one heartbeat may be late).
   */
  ready(): string[] {
    const fresh = performance.now() - (2 * this.leaseMs) / 3 - this.leaseMs / 4;
    const nodes = [...this.seen].filter(([node, seen]) => node !== this.node && seen.caughtUp && seen.at >= fresh).map(([node]) => node);
    if (this.state().caughtUp) nodes.push(this.node);
    return nodes.sort();
  }

  /** Stops the heartbeats and the watch, and removes this node's heartbeat (a graceful stop: the others see it gone at once). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.stopWatch?.();
    await this.bucket.delete(KEY_PREFIX + this.node).catch(() => undefined);
  }
}
