/**
 * Builds a running server from a configuration: the store, the first organization, the HTTP
 * front that finds each request's organization by its host (organizations.ts), then the
 * organizations with timed work. `startServer` is what main.ts and the tests call; `stop` shuts
 * down gracefully (stop accepting, finish what is in flight, flush, close the database).
 */
import type { Logger } from 'pino';
import { loadOrCreateOrganization } from './bootstrap.js';
import type { Config } from './config.js';
import { clientAddress } from './domain/ip-ranges.js';
import type { UserRecord } from './domain/users.js';
import { HttpFront, Site, type ServedRoute } from './http/front.js';
import { loadUws } from './http/native.js';
import { RateLimiter } from './http/rate-limit.js';
import { compileValidators } from './http/validation.js';
import { WebAssets } from './http/web-assets.js';
import { createLogger, droppedLogLines } from './log.js';
import { openControlChannel, type ControlChannel } from './ops/control.js';
import { serveMetrics } from './ops/metrics-endpoint.js';
import { ServerMetrics } from './ops/metrics.js';
import { probePort } from './ops/port-probe.js';
import type { OrganizationRuntime, ServerParts } from './organization-runtime.js';
import { Organizations } from './organizations.js';
import { emojiDataFile } from './queries/emoji-data.js';
import type { Clock, Services } from './services.js';
import { unusable } from './startup-failure.js';
import { backup, isOrganizationCommand, runOrganizationCommand } from './organization-admin.js';
import { serverHost, serverUploads } from './admin-hosts.js';
import { badRequest } from './domain/errors.js';
import { Organization } from './store/organization.js';
import { Counters } from './store/counters.js';
import { Database } from './store/database.js';
import type { FileReplicas } from './store/file-replica.js';
import { makeDirectory } from './store/directories.js';
import { checkStartupSpace } from './store/store-fault.js';
import { SCHEMAS } from '../schemas/registry.js';
import { PAGE_ROUTES, ROUTES } from './api/routes.js';
import { fileURLToPath } from 'node:url';

/** The built web client (`npm run build:web`): dist/public beside this file's dist/src. */
const WEB_CLIENT_DIR = fileURLToPath(new URL('../public/', import.meta.url));

export interface StartOptions {
  clock?: Clock;
  logger?: Logger;
  /** Where the ready line and first-start credentials go (stdout by default). */
  print?: (line: string) => void;
  /**
   * Cluster mode (src/cluster/): attached instead of starting the first organization; the node
   * loads the organizations it takes leases of. Unset: the embedded server, as always.
   */
  cluster?: { attach(parts: ServerParts, organizations: Organizations): Promise<void>; fileReplicas?: FileReplicas };
}

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  /** Port of the `/metrics` listener; undefined when PARLEY_METRICS_PORT is unset. */
  readonly metricsPort: number | undefined;
  /** The first organization's services (the root organization's, on a server that has one). */
  readonly services: Services;
  /** Every organization of the server, loaded at its first request. */
  readonly organizations: Organizations;
  /** How many organizations with timed work were loaded after listening, once they are. */
  readonly woken: Promise<number>;
  /** What the HTTP front serves (for every organization alike), read back from the first one's routers. */
  readonly routes: readonly ServedRoute[];
  readonly logger: Logger;
  stop(): Promise<void>;
}

/**
 * The request validators, compiled (each on first use) once per process: they hold no server's
 * state, and a process that starts many servers (the test suite) compiles each schema once.
 */
let sharedValidators: ReturnType<typeof compileValidators> | undefined;

export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const uws = loadUws();
  const logger = options.logger ?? createLogger(config.logLevel);
  const clock = options.clock ?? { now: () => Date.now() };
  const print = options.print ?? ((line: string) => process.stdout.write(line + '\n'));
  await checkStartup(config);
  const db = await openDatabase(config, logger);
  const validators = (sharedValidators ??= compileValidators(SCHEMAS));
  const parts: ServerParts = { config, logger, db, counters: new Counters(db), clock, compileSite: (site) => new Site(site, validators), fileReplicas: options.cluster?.fileReplicas };
  const organizations = new Organizations(parts);
  if (options.cluster) await options.cluster.attach(parts, organizations);
  const first = options.cluster ? undefined : await startFirstOrganization(organizations, parts, print);
  const metrics = config.metricsPort === undefined ? undefined : serverMetrics(organizations, db, logger);
  const front = new HttpFront<UserRecord>({
    uws,
    site: (host) => organizations.siteFor(host),
    validators,
    bodyLimitBytes: config.bodyLimitBytes,
    rateLimits: rateLimits(config, clock),
    logger,
    observe: metrics?.observe,
    staticResource: (path) => (path === emojiDataFile().path ? emojiDataFile() : undefined),
    clientAddress: (peer, forwardedFor) => clientAddress(peer, forwardedFor, config.trustedProxies),
    webAsset: webClient(),
  });
  const { port, metricsEndpoint } = await listenOrAbandon(front, metrics, config, logger, async () => {
    // Nothing was served: what started stops, and the database closes, before the error is told.
    await organizations.stopWork();
    await organizations.close();
    await db.close();
  });
  const control = await openControl(parts, organizations, metrics);
  const url = config.port === port ? config.externalUrl : config.externalUrl.replace(/:\d+$/, `:${port}`);
  print(`Parley listening on ${url}`);
  organizations.startIdleSweep();
  // Scheduled deliveries and notifications of organizations nobody has asked for yet.
  // (A cluster node loads what it holds leases of instead.)
  const woken = options.cluster
    ? Promise.resolve(0)
    : organizations.wake().catch((error: unknown) => {
        logger.error({ err: error }, 'waking organizations failed');
        return 0;
      });
  const stop = stopper({ config, front, organizations, db, control, metrics, closeMetrics: () => metricsEndpoint?.close(), waking: woken });
  return {
    url,
    port,
    metricsPort: metricsEndpoint?.port,
    get services(): Services {
      if (!first) throw new Error('a cluster node has no first organization: find organizations through `organizations`');
      return first.services;
    },
    organizations,
    woken,
    routes: first?.site.served() ?? [],
    logger,
    stop,
  };
}

/** Ports, the data directory and its free space, each refused with its setting's name (exit code 2). */
async function checkStartup(config: Config): Promise<void> {
  await probePort(config.host, config.port).catch(unusable('PARLEY_PORT', String(config.port)));
  if (config.metricsPort !== undefined) await probePort(config.host, config.metricsPort).catch(unusable('PARLEY_METRICS_PORT', String(config.metricsPort)));
  // A directory that cannot be made is named first; then a volume without room, which would fail
  // inside LevelDB or later under load, is said now.
  await Promise.resolve(config.dataDir).then(makeDirectory).catch(unusable('PARLEY_DATA_DIR', config.dataDir));
  await checkStartupSpace(config.dataDir, config.minFreeBytes);
}

async function openDatabase(config: Config, logger: Logger): Promise<Database> {
  const db = await Database.open(config.dataDir, { sync: config.sync, recovery: { minFreeBytes: config.minFreeBytes } }).catch(unusable('PARLEY_DATA_DIR', config.dataDir));
  db.onStateChange = (writable, detail) => {
    if (writable) logger.warn({ detail }, 'store recovered: writes are accepted again');
    else logger.error({ reason: detail }, 'store write failed: writes are refused until the store is reopened');
  };
  return db;
}

/**
 * The root organization (or, on a server without one, the first), loaded now: on an empty data
 * directory it is created, with its channels, as the first start always did.
 */
async function startFirstOrganization(organizations: Organizations, parts: ServerParts, print: (line: string) => void): Promise<OrganizationRuntime> {
  const { db, counters, config, clock } = parts;
  let first: OrganizationRuntime | undefined;
  await loadOrCreateOrganization(db, counters, config, clock.now(), print, async (org, seed) => (first = await organizations.start(org, seed)).services);
  return first!;
}

function serverMetrics(organizations: Organizations, db: Database, logger: Logger): ServerMetrics {
  // Every organization has the same routes; the queue figures are the sum over those loaded.
  const queues = {
    stats: () => {
      const total = { queues: 0, parkedPolls: 0, pendingEvents: 0, overflowed: 0 };
      for (const services of organizations.services()) {
        const stats = services.queues.stats();
        for (const name of Object.keys(total) as (keyof typeof total)[]) total[name] += stats[name];
      }
      return total;
    },
  };
  // From the URL table (every organization serves the same routes; a cluster node may serve none yet).
  const routePaths = [...ROUTES.map((route) => route.path), ...PAGE_ROUTES.map((page) => page.path)];
  return new ServerMetrics({ routePaths, queues, db, droppedLogLines: () => droppedLogLines(logger) });
}

function rateLimits(config: Config, clock: Clock) {
  if (!config.rateLimit) return undefined;
  const perSecond = () => clock.now() / 1000;
  return {
    perUser: new RateLimiter({ max: 200, windowSeconds: 60 }, perSecond),
    perIp: new RateLimiter({ max: 100, windowSeconds: 60 }, perSecond),
    keyOf: (user: UserRecord) => String(user.id),
  };
}

function webClient() {
  const assets = WebAssets.load(WEB_CLIENT_DIR);
  return assets ? (path: string, headers: Parameters<WebAssets['answer']>[1]) => assets.answer(path, headers) : undefined;
}

/** The control socket: backups (of every organization or one), and the organization commands of the CLI. */
function openControl(parts: ServerParts, organizations: Organizations, metrics: ServerMetrics | undefined): Promise<ControlChannel> {
  const { config, db, logger } = parts;
  const uploads = serverUploads(config.dataDir, () => organizations.services(), parts.fileReplicas);
  const admin = serverHost(parts, async (id) => {
    const runtime = await organizations.load(Organization.subdomainOf(db, id) ?? '');
    if (!runtime || runtime.services.org.id !== id) throw badRequest(`There is no organization ${id}.`);
    return runtime.services;
  });
  return openControlChannel(
    config.dataDir,
    {
      backup: async (dir, organization) => {
        const result = await backup(db, uploads, dir, organization);
        metrics?.backupDone(result, Date.now());
        logger.info({ dir: result.dir, entries: result.entries, seconds: result.seconds, organization }, 'backup written');
        return result;
      },
      command: (name, options) => {
        if (!isOrganizationCommand(name)) return Promise.reject(badRequest(`'${name}' runs with the server stopped`));
        return runOrganizationCommand(admin, name, options);
      },
    },
    logger,
  );
}

interface StopParts {
  config: Config;
  front: HttpFront<UserRecord>;
  organizations: Organizations;
  db: Database;
  control: ControlChannel;
  metrics: ServerMetrics | undefined;
  closeMetrics: () => Promise<void> | undefined;
  waking: Promise<unknown>;
}

/** The graceful stop, run once however often it is asked for. */
function stopper(parts: StopParts): () => Promise<void> {
  const { config, front, organizations, db, control, metrics } = parts;
  let stopping: Promise<void> | undefined;
  return () => {
    stopping ??= (async () => {
      // A load balancer polling /health sees 503 "stopping" while requests are still served, then the doors close.
      front.drain();
      if (config.drainSeconds > 0) await new Promise((resolve) => setTimeout(resolve, config.drainSeconds * 1000));
      front.stopAccepting();
      // No new backups; one in flight fails when the database closes, and leaves nothing behind.
      const controlClosed = control.close();
      // No delivery starts once stopping; those under way finish before the database closes.
      await organizations.stopWork();
      await parts.waking;
      await front.idle();
      front.closeConnections();
      await organizations.close();
      await db.close();
      metrics?.detach();
      await Promise.all([controlClosed, parts.closeMetrics()]);
    })();
    return stopping;
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
