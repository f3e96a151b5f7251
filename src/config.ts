/**
 * Every setting of the server: its environment variable, its default and what it may be. A value
 * it may not take is a ConfigError (see config-values.ts), thrown before anything starts.
 */
import { flag, host as hostSetting, httpUrl, integer, oneOf, seconds, ConfigError, type Env } from './config-values.js';
import { parseRange, type IpRange } from './domain/ip-ranges.js';

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
  /** An organization with no queue, request or timed work for this long is unloaded (the root never is). */
  organizationIdleSeconds: number;
  /** How often expired queues and acknowledged event-log entries are swept. */
  sweepSeconds: number;
  /** Port of the Prometheus `/metrics` listener (on `host`); undefined: no metrics. 0: any free port. */
  metricsPort: number | undefined;
  /** A Zulip-compatible push bouncer (e.g. https://push.zulipchat.com); undefined: no push service. */
  pushBouncerUrl: string | undefined;
  /** This server's registration with the bouncer (Zulip's zulip_org_id and zulip_org_key), sent as Basic auth. */
  pushBouncerServerUuid: string;
  pushBouncerServerKey: string;
  /** The address the bouncer registers this server under; set: Parley registers itself at start. */
  pushBouncerContactEmail: string | undefined;
  /** How often the organization's metadata is uploaded to the bouncer (remotes/server/analytics). */
  pushBouncerUploadSeconds: number;
  /** The SMTP server invitations are sent through; undefined: mail goes to the outbox in the store. */
  smtp: SmtpSettings | undefined;
  /** A BigBlueButton server (its API URL and shared secret); undefined: the provider is not set up. */
  bigBlueButton: { url: string; secret: string } | undefined;
  /** The sender address of the server's mail. */
  mailFrom: string;
  /** Validity of an invitation when POST /invites does not say (Zulip's INVITATION_LINK_VALIDITY_DAYS, in minutes). */
  invitationValidityMinutes: number;
  /** Invitation mails an organization may send per day; 0: no limit (Zulip's self-hosted default). */
  invitesDailyMax: number;
  /** On SIGTERM, `/health` answers 503 for this long (requests still served) before the server stops accepting. */
  drainSeconds: number;
  /** Peers whose X-Forwarded-For names the client (reverse proxies); empty: the peer is the client. */
  trustedProxies: readonly IpRange[];
  /** Free space the data directory's volume must have to start, and before a failed store is reopened. */
  minFreeBytes: number;
  /** Undelivered events a queue may hold; one more and it is expired early (its client re-registers). */
  queueMaxEvents: number;
  /** Nice levels every thread but the event loop's runs below it (ops/helper-threads.ts); 0 leaves them equal. */
  helperThreadNice: number;
}

export interface SmtpSettings {
  host: string;
  port: number;
  /** TLS from the first byte (port 465); otherwise STARTTLS is used when the server offers it. */
  secure: boolean;
  user: string | undefined;
  password: string | undefined;
}

/** A domain for the default sender address: the host when it is a name, else the reserved example domain. */
function mailHost(host: string): string {
  return /^[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/i.test(host) ? host : 'example.com';
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const MAX_PORT = 65535;

/** PARLEY_TRUSTED_PROXIES: addresses and CIDR ranges, separated by commas or spaces. */
function trustedProxies(env: Env): IpRange[] {
  const raw = env.PARLEY_TRUSTED_PROXIES ?? '';
  const ranges: IpRange[] = [];
  for (const entry of raw.split(/[\s,]+/).filter((part) => part !== '')) {
    const range = parseRange(entry);
    if (!range) throw new ConfigError('PARLEY_TRUSTED_PROXIES', raw, `IP addresses or CIDR ranges separated by commas ('${entry}' is neither), such as 127.0.0.1,10.0.0.0/8`);
    ranges.push(range);
  }
  return ranges;
}

export function configFromEnv(env: Env = process.env): Config {
  const host = hostSetting(env, 'PARLEY_HOST', '127.0.0.1');
  const port = integer(env, 'PARLEY_PORT', 9991, 1, MAX_PORT);
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const externalUrl = httpUrl(env, 'PARLEY_EXTERNAL_URL') ?? `http://${urlHost}:${port}`;
  const smtpSecure = flag(env, 'PARLEY_SMTP_SECURE', false);
  return {
    host,
    port,
    dataDir: env.PARLEY_DATA_DIR || './data',
    externalUrl,
    demo: flag(env, 'PARLEY_DEMO', false),
    sync: flag(env, 'PARLEY_SYNC', true),
    rateLimit: flag(env, 'PARLEY_RATE_LIMIT', true),
    bodyLimitBytes: integer(env, 'PARLEY_BODY_LIMIT', 1024 * 1024, 1024),
    logLevel: oneOf(env, 'PARLEY_LOG_LEVEL', 'warn', LOG_LEVELS),
    heartbeatSeconds: seconds(env, 'PARLEY_HEARTBEAT_SECONDS', 50, 0.1),
    queueIdleSeconds: seconds(env, 'PARLEY_QUEUE_IDLE_SECONDS', 600, 1),
    organizationIdleSeconds: seconds(env, 'PARLEY_ORGANIZATION_IDLE_SECONDS', 600, 1),
    sweepSeconds: seconds(env, 'PARLEY_SWEEP_SECONDS', 60, 0.1),
    // 0: any free port (the tests' choice).
    metricsPort: env.PARLEY_METRICS_PORT ? integer(env, 'PARLEY_METRICS_PORT', 0, 0, MAX_PORT) : undefined,
    pushBouncerUrl: httpUrl(env, 'PARLEY_PUSH_BOUNCER_URL'),
    pushBouncerServerUuid: env.PARLEY_PUSH_BOUNCER_SERVER_UUID || '',
    pushBouncerServerKey: env.PARLEY_PUSH_BOUNCER_SERVER_KEY || '',
    bigBlueButton: env.PARLEY_BIG_BLUE_BUTTON_URL && env.PARLEY_BIG_BLUE_BUTTON_SECRET ? { url: env.PARLEY_BIG_BLUE_BUTTON_URL, secret: env.PARLEY_BIG_BLUE_BUTTON_SECRET } : undefined,
    pushBouncerContactEmail: env.PARLEY_PUSH_BOUNCER_CONTACT_EMAIL || undefined,
    pushBouncerUploadSeconds: integer(env, 'PARLEY_PUSH_BOUNCER_UPLOAD_SECONDS', 3600, 1),
    smtp: env.PARLEY_SMTP_HOST
      ? {
          host: hostSetting(env, 'PARLEY_SMTP_HOST', ''),
          port: integer(env, 'PARLEY_SMTP_PORT', smtpSecure ? 465 : 587, 1, MAX_PORT),
          secure: smtpSecure,
          user: env.PARLEY_SMTP_USER || undefined,
          password: env.PARLEY_SMTP_PASSWORD || undefined,
        }
      : undefined,
    mailFrom: env.PARLEY_MAIL_FROM || `noreply@${mailHost(new URL(externalUrl).hostname)}`,
    invitationValidityMinutes: integer(env, 'PARLEY_INVITATION_VALIDITY_MINUTES', 14400, 1),
    invitesDailyMax: integer(env, 'PARLEY_INVITES_DAILY_MAX', 0, 0),
    drainSeconds: seconds(env, 'PARLEY_DRAIN_SECONDS', 5, 0, 600),
    trustedProxies: trustedProxies(env),
    minFreeBytes: integer(env, 'PARLEY_MIN_FREE_MB', 16, 0) * 1024 * 1024,
    queueMaxEvents: integer(env, 'PARLEY_QUEUE_MAX_EVENTS', 2000, 1),
    helperThreadNice: integer(env, 'PARLEY_HELPER_THREAD_NICE', 10, 0, 19),
  };
}
