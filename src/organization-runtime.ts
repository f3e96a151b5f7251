/**
 * One organization at work: its services, its background work (event queues restored and kept,
 * the scheduler, notification delivery, bouncer updates, the search index) and the site the HTTP
 * front serves for it. Started when the organization is first asked for (organizations.ts);
 * stopped in two steps at shutdown, around the front's last requests.
 */
import type { Logger } from 'pino';
import { NotificationDelivery } from './actions/notification-delivery.js';
import { startBouncerUpdates } from './actions/push-analytics.js';
import { deliverScheduled } from './actions/scheduled-delivery.js';
import { resumeExports } from './actions/realm-export.js';
import { clearWakeMarkIfIdle } from './actions/timed-work.js';
import { hasTimedWork } from './queries/timed-work.js';
import type { Route } from './http/contract.js';
import type { PageRoute } from './http/pages.js';
import { bindPages } from './api/pages.js';
import { bindRoutes } from './api/route.js';
import { ROOT_ROUTES, ROUTES } from './api/routes.js';
import type { Config } from './config.js';
import type { UserRecord } from './domain/users.js';
import { restoreQueues, startHousekeeping, type HousekeepingParts } from './events/housekeeping.js';
import type { Site, SiteOptions } from './http/front.js';
import { healthCheck } from './ops/health.js';
import { basicAuthenticator } from './queries/credentials.js';
import { fileInUse, filesInUse } from './queries/stored-files.js';
import type { Clock, Services } from './services.js';
import type { Counters } from './store/counters.js';
import type { Database } from './store/database.js';
import type { Organization } from './store/organization.js';
import type { FileReplicas } from './store/file-replica.js';
import { buildServices } from './wiring.js';

/** What every organization of the server shares. */
export interface ServerParts {
  config: Config;
  logger: Logger;
  db: Database;
  counters: Counters;
  clock: Clock;
  /** Compiles a site's routes (with the front's validators). */
  compileSite: (options: SiteOptions<UserRecord>) => Site<UserRecord>;
  /** Cluster mode: where uploaded bytes are replicated (unset on the embedded server). */
  fileReplicas?: FileReplicas;
}

interface BackgroundWork {
  stop(): Promise<void>;
}

/**
 * Requests an organization is serving and when it last had one (for unloading idle ones:
 * organizations.ts). A request only sets a flag; the idle sweep turns it into a time, so the hot
 * path reads no clock and an organization unloads at most one sweep later than its idle period.
 */
class Usage {
  inFlight = 0;
  /** Cluster mode, during a hand-over: handlers that start now are refused with it (nothing changed; the forwarder sends them on). */
  refusal: Error | undefined;
  private used = false;
  private lastUsed = performance.now();

  touch(): void {
    this.used = true;
  }

  /** Milliseconds since the last use a sweep noticed (a use since the last sweep counts as now). */
  idleFor(now: number): number {
    if (this.used) {
      this.used = false;
      this.lastUsed = now;
    }
    return now - this.lastUsed;
  }

  /** The handler counted in flight while it runs; used again when it ends. */
  wrap<A, R>(handler: (request: A) => R): (request: A) => R {
    // `ended` is made once: a closure per request cost more than the count itself on the hot reads.
    const ended = () => this.ended();
    return (request: A) => {
      if (this.refusal) throw this.refusal;
      this.inFlight++;
      this.used = true;
      try {
        const result = handler(request);
        if (result instanceof Promise) return result.finally(ended) as R;
        this.ended();
        return result;
      } catch (error) {
        this.ended();
        throw error;
      }
    };
  }

  private ended(): void {
    this.inFlight--;
    this.used = true;
  }
}

export class OrganizationRuntime {
  private constructor(
    readonly services: Services,
    readonly site: Site<UserRecord>,
    private readonly work: BackgroundWork,
    private readonly usage: Usage,
  ) {}

  /** A request arrives for this organization (the front found its site). */
  touch(): void {
    this.usage.touch();
  }

  /**
   * Whether it may be unloaded: nothing asked of it for `idleMs`, no request in a handler, no
   * event queue, no timed work (scheduled messages, notifications), no background job.
   */
  idle(idleMs: number): boolean {
    const { services } = this;
    if (this.usage.inFlight > 0 || this.usage.idleFor(performance.now()) < idleMs) return false;
    return services.queues.size === 0 && !hasTimedWork(services) && !services.background.busy;
  }

  /**
   * Builds the organization's services, runs `seed` (a new organization's first writes), starts
   * its background work and compiles its site. What started is stopped again if a step fails.
   */
  static async start(parts: ServerParts, org: Organization, seed?: (services: Services) => Promise<void>): Promise<OrganizationRuntime> {
    const services = await buildServices({ ...parts, org });
    try {
      if (seed) await seed(services);
      const work = await startBackgroundWork(services);
      const usage = new Usage();
      return new OrganizationRuntime(services, parts.compileSite(siteOptions(services, usage)), work, usage);
    } catch (error) {
      await closeServices(services);
      throw error;
    }
  }

  /** Cluster mode, handing the organization over: handlers not started yet are refused with `refusal` (nothing changed). */
  refuseNew(refusal: Error): void {
    this.usage.refusal = refusal;
  }

  /**
   * Resolves once no handler runs (`parkedToo` false: none but parked long polls, which only the
   * queues' closing answers), or after `timeoutMs` when one hangs.
   */
  async settled(parkedToo: boolean, timeoutMs: number): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    while (performance.now() < deadline) {
      const parked = parkedToo ? 0 : this.services.queues.stats().parkedPolls;
      if (this.usage.inFlight <= parked) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Stops the background work: no delivery starts, those under way finish; the queues close. */
  stopWork(): Promise<void> {
    return this.work.stop();
  }

  /** Once no request runs: the wake mark settled, then what holds memory or files closes. */
  async close(): Promise<void> {
    await clearWakeMarkIfIdle(this.services).catch((error: unknown) => this.services.logger.warn({ err: error }, 'wake mark not settled'));
    await closeServices(this.services);
  }
}

/** The organization's routes, pages, authenticator and health check, bound to its services. */
function siteOptions(services: Services, usage: Usage): SiteOptions<UserRecord> {
  const counted = (routes: Route<UserRecord>[]) => routes.map((route) => ({ ...route, handler: usage.wrap(route.handler) }));
  const countedPages = (pages: PageRoute[]) => pages.map((page) => ({ ...page, handler: usage.wrap(page.handler) }));
  return {
    routes: counted(bindRoutes(ROUTES, services)),
    rootRoutes: counted(bindRoutes(ROOT_ROUTES, services)),
    pages: countedPages(bindPages(services)),
    authenticate: basicAuthenticator(services),
    health: healthCheck(services),
    // User ids are per organization; the limiter is the server's.
    rateKeyPrefix: `${services.org.id}:`,
  };
}

/** Uploads swept, queues restored, the search index caught up; then the timers and deliverers start. */
async function startBackgroundWork(services: Services): Promise<BackgroundWork> {
  const { config, logger } = services;
  const housekeepingParts: HousekeepingParts = {
    queues: services.queues,
    write: services.write,
    logger,
    startedAt: services.startedAt,
    heartbeatSeconds: config.heartbeatSeconds,
    sweepSeconds: config.sweepSeconds,
  };
  // Uploads: what an interrupted write left behind goes, and so do files no record names.
  await services.files.open();
  await services.files.sweep(filesInUse(services));
  // Cluster mode: the files bucket's objects no record names, at takeover and then periodically.
  const stopReplicaSweeps = services.files.sweepReplicaEvery((sha) => fileInUse(services, sha), (outcome) => {
    if ('error' in outcome) logger.warn({ err: outcome.error }, 'cluster: the files bucket could not be swept');
  });
  await restoreQueues(housekeepingParts);
  // Edits a crash kept from the index now; the messages above its indexed id in the background.
  await services.search.start(await services.messages.newestId());
  const housekeeping = startHousekeeping(housekeepingParts);
  // After the queues are restored, so that a delivery's events reach them; overdue items go at once.
  const waiting = [...services.scheduled.all()].filter((record) => !record.failed).map((record) => ({ id: record.id, due: record.deliverAt }));
  services.scheduler.run(waiting, (ids) => deliverScheduled(services, ids));
  // Data exports a stop or crash left pending: made now, or marked failed if they were under way.
  await resumeExports(services);
  // Notifications decided before a stop or crash go now; new ones as they are decided.
  const notificationDelivery = new NotificationDelivery(services);
  notificationDelivery.start();
  const stopBouncerUpdates = startBouncerUpdates(services, config.pushBouncerUploadSeconds);
  return {
    async stop() {
      stopReplicaSweeps();
      await services.scheduler.stop();
      stopBouncerUpdates();
      await notificationDelivery.stop();
      await housekeeping.stop();
      await services.queues.close();
    },
  };
}

/** Closes what an organization's services hold open (thumbnailing, actors, the search index). */
async function closeServices(services: Services): Promise<void> {
  await services.thumbnails.idle();
  services.actors.stopAll();
  await services.search.close();
}
