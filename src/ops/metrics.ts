/**
 * The server's Prometheus metrics: requests and latency per route, event queues and parked
 * polls, store writes, backups, and prom-client's process figures, in one registry per server.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { EventQueues } from '../events/queues.js';
import type { BackupResult } from '../store/backup.js';
import type { Database } from '../store/database.js';

export interface MetricsSources {
  /** Path patterns of every API route: the only values the `route` label may take, with /health. */
  routePaths: Iterable<string>;
  /** The event queues' figures (summed over the organizations loaded). */
  queues: Pick<EventQueues, 'stats'>;
  db: Database;
  /** Log lines dropped because the log destination failed or stalled (see log.ts). */
  droppedLogLines?: () => number;
}

/** Methods a label may name; anything else a client sends is counted as OTHER, so labels stay few. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const API_PREFIX = '/api/v1';

export class ServerMetrics {
  /** Per server, not prom-client's global registry: tests run several servers in one process. */
  readonly registry = new Registry();
  private readonly routes: Set<string>;
  /**
   * Answered requests by method, route label and status, counted here and handed to prom-client
   * at each scrape (the counter's `collect`): its `inc` hashes and checks the label object on
   * every call, about 2 µs a request, more than the rest of a `GET /users/me`.
   */
  private readonly counts = new Map<string, Map<string, Map<number, number>>>();
  private readonly latency: Histogram<'method' | 'route'>;
  private readonly lastBackup: Gauge;
  private readonly backupSeconds: Gauge;

  constructor(private readonly sources: MetricsSources) {
    const registers = [this.registry];
    this.routes = new Set([...sources.routePaths, '/health']);
    collectDefaultMetrics({ register: this.registry });
    const counts = this.counts;
    new Counter({
      name: 'parley_http_requests_total',
      help: 'Answered HTTP requests by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      registers,
      collect() {
        this.reset();
        for (const [method, byRoute] of counts) {
          for (const [route, byStatus] of byRoute) for (const [status, count] of byStatus) this.inc({ method, route, status: String(status) }, count);
        }
      },
    });
    this.latency = new Histogram({
      name: 'parley_http_request_duration_seconds',
      help: 'Time from a request to its answer, by method and route pattern (GET /events includes the long-poll wait).',
      labelNames: ['method', 'route'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10, 30, 60],
      registers,
    });
    this.queueMetrics(sources.queues);
    this.storeMetrics(sources.db);
    const dropped = sources.droppedLogLines;
    new Counter({
      name: 'parley_log_lines_dropped_total',
      help: 'Log lines dropped because the log destination failed (a full disk, a closed pipe) or could not keep up.',
      registers,
      collect() {
        this.reset();
        this.inc(dropped?.() ?? 0);
      },
    });
    this.lastBackup = new Gauge({
      name: 'parley_backup_last_success_timestamp_seconds',
      help: 'Unix time when the last successful online backup finished (0: none since start).',
      registers,
    });
    this.backupSeconds = new Gauge({
      name: 'parley_backup_last_duration_seconds',
      help: 'How long the last successful online backup took.',
      registers,
    });
  }

  /** The event queues' figures, read at each scrape. */
  private queueMetrics(queues: MetricsSources['queues']): void {
    const registers = [this.registry];
    new Gauge({
      name: 'parley_event_queues',
      help: 'Registered event queues.',
      registers,
      collect() {
        this.set(queues.stats().queues);
      },
    });
    new Gauge({
      name: 'parley_parked_polls',
      help: 'GET /events requests waiting for an event.',
      registers,
      collect() {
        this.set(queues.stats().parkedPolls);
      },
    });
    new Gauge({
      name: 'parley_event_queue_pending_events',
      help: 'Events held by all queues, not yet acknowledged by their clients.',
      registers,
      collect() {
        this.set(queues.stats().pendingEvents);
      },
    });
    new Counter({
      name: 'parley_event_queues_overflowed_total',
      help: 'Event queues expired early for holding more undelivered events than PARLEY_QUEUE_MAX_EVENTS.',
      registers,
      collect() {
        this.reset();
        this.inc(queues.stats().overflowed);
      },
    });
  }

  /** The store's writes (group commit sizes and durations) and its outages. */
  private storeMetrics(db: Database): void {
    const registers = [this.registry];
    const flushOps = new Histogram({
      name: 'parley_store_batch_ops',
      help: 'Operations per LevelDB write (group commit: every batch queued in one turn goes in one write).',
      buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 5000, 20000],
      registers,
    });
    const flushSeconds = new Histogram({
      name: 'parley_store_write_seconds',
      help: 'Duration of each LevelDB write, sync to disk included when PARLEY_SYNC is on.',
      buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers,
    });
    db.onFlush = (ops, seconds) => {
      flushOps.observe(ops);
      flushSeconds.observe(seconds);
    };
    new Gauge({
      name: 'parley_store_writable',
      help: '1 while the store accepts writes; 0 from a failed LevelDB write until it is reopened and proven writable.',
      registers,
      collect() {
        this.set(db.writable ? 1 : 0);
      },
    });
    new Counter({
      name: 'parley_store_write_failures_total',
      help: 'Outages of the store: LevelDB writes that failed while it was accepting writes (each starts a recovery).',
      registers,
      collect() {
        this.reset();
        this.inc(db.outages.failures);
      },
    });
  }

  /** HttpFront's `observe` hook. */
  readonly observe = (method: string, route: string, status: number, seconds: number): void => {
    const name = METHODS.has(method) ? method : 'OTHER';
    const path = route.startsWith(API_PREFIX + '/') ? route.slice(API_PREFIX.length) : route;
    const label = this.routes.has(path) ? path : 'unmatched';
    let byRoute = this.counts.get(name);
    if (byRoute === undefined) this.counts.set(name, (byRoute = new Map()));
    let byStatus = byRoute.get(label);
    if (byStatus === undefined) byRoute.set(label, (byStatus = new Map()));
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    this.latency.observe({ method: name, route: label }, seconds);
  };

  backupDone(result: BackupResult, finishedAtMs: number): void {
    this.lastBackup.set(finishedAtMs / 1000);
    this.backupSeconds.set(result.seconds);
  }

  /** Exposition text for a scrape. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** Stops feeding the registry (the server is stopping). */
  detach(): void {
    if (this.sources.db.onFlush) this.sources.db.onFlush = undefined;
  }
}
