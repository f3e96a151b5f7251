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
  /** The address the bouncer registers this server under; set: Parley registers itself at start. */
  pushBouncerContactEmail: string | undefined;
  /** How often the organization's metadata is uploaded to the bouncer (remotes/server/analytics). */
  pushBouncerUploadSeconds: number;
  /** The SMTP server invitations are sent through; undefined: mail goes to the outbox in the store. */
  smtp: SmtpSettings | undefined;
  /** The sender address of the server's mail. */
  mailFrom: string;
  /** Validity of an invitation when POST /invites does not say (Zulip's INVITATION_LINK_VALIDITY_DAYS, in minutes). */
  invitationValidityMinutes: number;
  /** Invitation mails an organization may send per day; 0: no limit (Zulip's self-hosted default). */
  invitesDailyMax: number;
}

export interface SmtpSettings {
  host: string;
  port: number;
  /** TLS from the first byte (port 465); otherwise STARTTLS is used when the server offers it. */
  secure: boolean;
  user: string | undefined;
  password: string | undefined;
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

/** A domain for the default sender address: the host when it is a name, else the reserved example domain. */
function mailHost(host: string): string {
  return /^[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/i.test(host) ? host : 'example.com';
}

export function configFromEnv(env: Env = process.env): Config {
  const host = env.PARLEY_HOST || '127.0.0.1';
  const port = int(env, 'PARLEY_PORT', 9991);
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const externalUrl = (env.PARLEY_EXTERNAL_URL || `http://${urlHost}:${port}`).replace(/\/+$/, '');
  return {
    host,
    port,
    dataDir: env.PARLEY_DATA_DIR || './data',
    externalUrl,
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
    pushBouncerContactEmail: env.PARLEY_PUSH_BOUNCER_CONTACT_EMAIL || undefined,
    pushBouncerUploadSeconds: int(env, 'PARLEY_PUSH_BOUNCER_UPLOAD_SECONDS', 3600) || 3600,
    smtp: env.PARLEY_SMTP_HOST
      ? {
          host: env.PARLEY_SMTP_HOST,
          port: int(env, 'PARLEY_SMTP_PORT', flag(env, 'PARLEY_SMTP_SECURE', false) ? 465 : 587),
          secure: flag(env, 'PARLEY_SMTP_SECURE', false),
          user: env.PARLEY_SMTP_USER || undefined,
          password: env.PARLEY_SMTP_PASSWORD || undefined,
        }
      : undefined,
    mailFrom: env.PARLEY_MAIL_FROM || `noreply@${mailHost(new URL(externalUrl).hostname)}`,
    invitationValidityMinutes: int(env, 'PARLEY_INVITATION_VALIDITY_MINUTES', 14400),
    invitesDailyMax: int(env, 'PARLEY_INVITES_DAILY_MAX', 0),
  };
}
