/** Every setting of the server: its environment variable and its default. */

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  externalUrl: string;
  /** Create the demo organization when the data directory is empty. */
  demo: boolean;
  /** Acknowledge a write only once it is flushed to disk. */
  sync: boolean;
  rateLimit: boolean;
  /** Bodies larger than this are refused with 413 before they are buffered. */
  bodyLimitBytes: number;
  logLevel: string;
  /** Quiet interval after which a parked long-poll gets a heartbeat event. */
  heartbeatSeconds: number;
  /** A queue nobody polls for this long expires (unless registered with a lifespan). */
  queueIdleSeconds: number;
  /** How often expired queues and acknowledged event-log entries are swept. */
  sweepSeconds: number;
  /** Port of the Prometheus `/metrics` listener (on `host`); undefined: no metrics. 0: any free port. */
  metricsPort: number | undefined;
  /** A Zulip-compatible push bouncer (e.g. https://push.zulipchat.com); undefined: no push service. */
  pushBouncerUrl: string | undefined;
  /** This server's registration with the bouncer (Zulip's zulip_org_id and zulip_org_key), sent as Basic auth. */
  pushBouncerServerUuid: string;
  pushBouncerServerKey: string;
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got '${raw}'`);
  return value;
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  return !['0', 'false', 'no', 'off'].includes(raw.toLowerCase());
}

export function configFromEnv(env: Env = process.env): Config {
  const host = env.PARLEY_HOST || '127.0.0.1';
  const port = int(env, 'PARLEY_PORT', 9991);
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    host,
    port,
    dataDir: env.PARLEY_DATA_DIR || './data',
    externalUrl: (env.PARLEY_EXTERNAL_URL || `http://${urlHost}:${port}`).replace(/\/+$/, ''),
    demo: flag(env, 'PARLEY_DEMO', false),
    sync: flag(env, 'PARLEY_SYNC', true),
    rateLimit: flag(env, 'PARLEY_RATE_LIMIT', true),
    bodyLimitBytes: int(env, 'PARLEY_BODY_LIMIT', 1024 * 1024),
    logLevel: env.PARLEY_LOG_LEVEL || 'warn',
    heartbeatSeconds: int(env, 'PARLEY_HEARTBEAT_SECONDS', 50),
    queueIdleSeconds: int(env, 'PARLEY_QUEUE_IDLE_SECONDS', 600),
    sweepSeconds: int(env, 'PARLEY_SWEEP_SECONDS', 60),
    metricsPort: env.PARLEY_METRICS_PORT ? int(env, 'PARLEY_METRICS_PORT', 0) : undefined,
    pushBouncerUrl: env.PARLEY_PUSH_BOUNCER_URL ? env.PARLEY_PUSH_BOUNCER_URL.replace(/\/+$/, '') : undefined,
    pushBouncerServerUuid: env.PARLEY_PUSH_BOUNCER_SERVER_UUID || '',
    pushBouncerServerKey: env.PARLEY_PUSH_BOUNCER_SERVER_KEY || '',
  };
}
