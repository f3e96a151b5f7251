/**
 * Builds a running server from a configuration: store → organization → actors → HTTP.
 * `startServer` is what main.ts and the tests call; `stop` shuts down gracefully (stop
 * accepting, finish what is in flight, flush, close the database).
 */
import { NotificationDelivery } from './actions/notification-delivery.js';
import { startBouncerUpdates } from './actions/push-analytics.js';
import type { Logger } from 'pino';
import { bindRoutes } from './api/route.js';
import { bindPages } from './api/pages.js';
import { ROOT_ROUTES, ROUTES } from './api/routes.js';
import { basicAuthenticator } from './queries/credentials.js';
import { loadOrCreateOrganization } from './bootstrap.js';
import { buildServices } from './wiring.js';
import { deliverScheduled } from './actions/scheduled-delivery.js';
import { restoreQueues, startHousekeeping } from './events/housekeeping.js';
import type { Config } from './config.js';
import type { UserRecord } from './domain/users.js';
import { HttpFront, type ServedRoute } from './http/front.js';
import { loadUws } from './http/native.js';
import { RateLimiter } from './http/rate-limit.js';
import { compileValidators } from './http/validation.js';
import { createLogger, droppedLogLines } from './log.js';
import { unusable } from './startup-failure.js';
import { clientAddress } from './domain/ip-ranges.js';
import { openControlChannel } from './ops/control.js';
import { probePort } from './ops/port-probe.js';
import { healthCheck } from './ops/health.js';
import { emojiDataFile } from './queries/emoji-data.js';
import { filesInUse } from './queries/stored-files.js';
import { serveMetrics } from './ops/metrics-endpoint.js';
import { ServerMetrics } from './ops/metrics.js';
import { SCHEMAS } from '../schemas/registry.js';
import { backup, isOrganizationCommand, runOrganizationCommand } from './organization-admin.js';
import { serverHost } from './admin-hosts.js';
import { badRequest } from './domain/errors.js';
import type { Clock, Services } from './services.js';
import { Counters } from './store/counters.js';
import { Database } from './store/database.js';
import { checkStartupSpace } from './store/store-fault.js';
import { makeDirectory } from './store/directories.js';
import { WebAssets } from './http/web-assets.js';
import { fileURLToPath } from 'node:url';

/** The built web client (`npm run build:web`): dist/public beside this file's dist/src. */
const WEB_CLIENT_DIR = fileURLToPath(new URL('../public/', import.meta.url));

export interface StartOptions {
  clock?: Clock;
  logger?: Logger;
  /** Where the ready line and first-start credentials go (stdout by default). */
  print?: (line: string) => void;
}

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  /** Port of the `/metrics` listener; undefined when PARLEY_METRICS_PORT is unset. */
  readonly metricsPort: number | undefined;
  readonly services: Services;
  /** What the HTTP front serves, read back from its router. */
  readonly routes: readonly ServedRoute[];
  stop(): Promise<void>;
}

export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const uws = loadUws();
  const logger = options.logger ?? createLogger(config.logLevel);
  const clock = options.clock ?? { now: () => Date.now() };
  const print = options.print ?? ((line: string) => process.stdout.write(line + '\n'));

  await probePort(config.host, config.port).catch(unusable('PARLEY_PORT', String(config.port)));
  if (config.metricsPort !== undefined) await probePort(config.host, config.metricsPort).catch(unusable('PARLEY_METRICS_PORT', String(config.metricsPort)));
  // A directory that cannot be made is named first; then a volume without room, which would fail
  // inside LevelDB or later under load, is said now (exit code 2).
  await Promise.resolve(config.dataDir).then(makeDirectory).catch(unusable('PARLEY_DATA_DIR', config.dataDir));
  await checkStartupSpace(config.dataDir, config.minFreeBytes);
  const db = await Database.open(config.dataDir, { sync: config.sync, recovery: { minFreeBytes: config.minFreeBytes } }).catch(unusable('PARLEY_DATA_DIR', config.dataDir));
  db.onStateChange = (writable, detail) => {
    if (writable) logger.warn({ detail }, 'store recovered: writes are accepted again');
    else logger.error({ reason: detail }, 'store write failed: writes are refused until the store is reopened');
  };
  const counters = new Counters(db);
  const { services } = await loadOrCreateOrganization(db, counters, config, clock.now(), print, (org) => buildServices({ config, logger, db, counters, org, clock }));
  const { actors, queues } = services;
  const housekeepingParts = {
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
  await restoreQueues(housekeepingParts);
  // Edits a crash kept from the index now; the messages above its indexed id in the background.
  await services.search.start(await services.messages.newestId());
  const housekeeping = startHousekeeping(housekeepingParts);
  // After the queues are restored, so that a delivery's events reach them; overdue items go at once.
  const waiting = [...services.scheduled.all()].filter((record) => !record.failed).map((record) => ({ id: record.id, due: record.deliverAt }));
  services.scheduler.run(waiting, (ids) => deliverScheduled(services, ids));
  // Notifications decided before a stop or crash go now; new ones as they are decided.
  const notificationDelivery = new NotificationDelivery(services);
  notificationDelivery.start();
  const stopBouncerUpdates = startBouncerUpdates(services, config.pushBouncerUploadSeconds);

  const routes = bindRoutes(ROUTES, services);
  const pages = bindPages(services);
  const routePaths = [...routes.map((route) => route.path), ...pages.map((page) => page.path)];
  const metrics = config.metricsPort === undefined ? undefined : new ServerMetrics({ routePaths, queues, db, droppedLogLines: () => droppedLogLines(logger) });
  const perSecond = () => clock.now() / 1000;
  const webClient = WebAssets.load(WEB_CLIENT_DIR);
  const front = new HttpFront<UserRecord>({
    uws,
    routes,
    rootRoutes: bindRoutes(ROOT_ROUTES, services),
    validators: compileValidators(SCHEMAS),
    bodyLimitBytes: config.bodyLimitBytes,
    authenticate: basicAuthenticator(services),
    rateLimits: config.rateLimit
      ? {
          perUser: new RateLimiter({ max: 200, windowSeconds: 60 }, perSecond),
          perIp: new RateLimiter({ max: 100, windowSeconds: 60 }, perSecond),
          keyOf: (user) => String(user.id),
        }
      : undefined,
    logger,
    observe: metrics?.observe,
    health: healthCheck(services),
    staticResource: (path) => (path === emojiDataFile().path ? emojiDataFile() : undefined),
    pages,
    clientAddress: (peer, forwardedFor) => clientAddress(peer, forwardedFor, config.trustedProxies),
    webAsset: webClient ? (path, headers) => webClient.answer(path, headers) : undefined,
  });
  const { port, metricsEndpoint } = await listenOrAbandon(front, metrics, config, logger, async () => {
    // Nothing was served: what started stops, and the database closes, before the error is told.
    await Promise.all([services.scheduler.stop(), housekeeping.stop(), queues.close()]);
    actors.stopAll();
    await services.search.close();
    await db.close();
  });
  const adminHost = serverHost({ config, db, counters, logger, clock, files: services.files }, async (id) => {
    if (id === services.org.id) return services;
    throw badRequest(`organization ${id} is not served by this process`);
  });
  const control = await openControlChannel(
    config.dataDir,
    {
      backup: async (dir, organization) => {
        const result = await backup(db, services.files, dir, organization);
        metrics?.backupDone(result, Date.now());
        logger.info({ dir: result.dir, entries: result.entries, seconds: result.seconds }, 'backup written');
        return result;
      },
      command: (name, options) => {
        if (!isOrganizationCommand(name)) return Promise.reject(badRequest(`'${name}' runs with the server stopped`));
        return runOrganizationCommand(adminHost, name, options);
      },
    },
    logger,
  );
  const url = config.port === port ? config.externalUrl : config.externalUrl.replace(/:\d+$/, `:${port}`);
  print(`Parley listening on ${url}`);

  let stopping: Promise<void> | undefined;
  return {
    url,
    port,
    metricsPort: metricsEndpoint?.port,
    services,
    routes: front.served(),
    stop() {
      stopping ??= (async () => {
        // A load balancer polling /health sees 503 "stopping" while requests are still served, then the doors close.
        front.drain();
        if (config.drainSeconds > 0) await new Promise((resolve) => setTimeout(resolve, config.drainSeconds * 1000));
        front.stopAccepting();
        // No new backups; one in flight fails when the database closes, and leaves nothing behind.
        const controlClosed = control.close();
        // No delivery starts once stopping; those under way finish before the database closes.
        await services.scheduler.stop();
        stopBouncerUpdates();
        await notificationDelivery.stop();
        await housekeeping.stop();
        await queues.close();
        await front.idle();
        front.closeConnections();
        await services.thumbnails.idle();
        actors.stopAll();
        await services.search.close();
        await db.close();
        metrics?.detach();
        await Promise.all([controlClosed, metricsEndpoint?.close()]);
      })();
      return stopping;
    },
  };
}

/**
 * Listens on the API port, then the metrics port. A port that cannot be had is its setting's
 * ConfigError (the exclusive bind loses a race the start-up probe won), told once `abandon` has
 * stopped what had started.
 */
async function listenOrAbandon(front: HttpFront<UserRecord>, metrics: ServerMetrics | undefined, config: Config, logger: Logger, abandon: () => Promise<void>) {
  try {
    const port = await front.listen(config.host, config.port)
      .catch(unusable('PARLEY_PORT', String(config.port), `cannot listen on ${config.host}:${config.port}: the port is in use (another Parley, or another program)`));
    const metricsEndpoint = metrics && (await serveMetrics(metrics, config.host, config.metricsPort!, logger).catch(unusable('PARLEY_METRICS_PORT', String(config.metricsPort))));
    return { port, metricsEndpoint };
  } catch (error) {
    front.stopAccepting();
    await abandon();
    throw error;
  }
}
