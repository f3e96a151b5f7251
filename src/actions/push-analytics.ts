/**
 * What the bouncer needs to know of this server (Zulip's zerver/lib/remote_server.py): its
 * registration (`remotes/server/register`, Zulip's `manage.py register_server`) when a contact
 * address is configured, and the organization's metadata (`remotes/server/analytics`, Zulip's
 * send_server_data_to_push_bouncer), at start and on a schedule. The bouncer's answer says
 * whether it will push for the organization (`can_push`), which POST /register reports.
 */
import { createHmac } from 'node:crypto';
import { ZULIP_FEATURE_LEVEL } from '../domain/versions.js';
import type { Services } from '../services.js';
import { bouncerOutcome, bouncerPushStatus, getFromBouncer, postToBouncer, realmUuid } from './push-bouncer.js';

/** Zulip's RealmDataForAnalytics for the one organization. */
function realmData(services: Services): Record<string, unknown> {
  const { org, config } = services;
  return {
    id: org.id,
    host: new URL(org.url).host,
    url: org.url,
    name: org.realm.name,
    org_type: 0,
    date_created: org.realm.dateCreated,
    deactivated: false,
    is_system_bot_realm: false,
    authentication_methods: { Email: true },
    uuid: realmUuid(services),
    uuid_owner_secret: createHmac('sha256', config.pushBouncerServerKey).update(`realm-owner:${org.id}`).digest('hex').slice(0, 32),
  };
}

/** Registers this server with the bouncer (idempotent: the same id and key update the record). */
export async function registerWithBouncer(services: Services): Promise<void> {
  const { pushBouncerUrl: url, pushBouncerServerUuid, pushBouncerServerKey, pushBouncerContactEmail } = services.config;
  if (url === undefined || pushBouncerContactEmail === undefined) return;
  const response = await postToBouncer(services, url, 'server/register', {
    zulip_org_id: pushBouncerServerUuid,
    zulip_org_key: pushBouncerServerKey,
    hostname: new URL(services.config.externalUrl).host,
    contact_email: pushBouncerContactEmail,
  }).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
  if (bouncerOutcome(response) === 'done') services.logger.info('registered with the push bouncer');
  else services.logger.error({ response }, 'push bouncer registration failed');
}

/** Uploads the organization's metadata; records the bouncer's `can_push`. */
export async function uploadToBouncer(services: Services): Promise<void> {
  const url = services.config.pushBouncerUrl;
  if (url === undefined) return;
  try {
    const status = await getFromBouncer(services, url, 'server/analytics/status');
    if (bouncerOutcome(status) !== 'done') throw new Error(`analytics status answered ${status.status}: ${String(status.body.msg ?? '')}`);
    // No usage statistics are kept: the counts are empty; the organization's record is what the bouncer needs.
    const response = await postToBouncer(services, url, 'server/analytics', {
      realm_counts: '[]',
      installation_counts: '[]',
      realmauditlog_rows: '[]',
      realms: JSON.stringify([realmData(services)]),
      version: JSON.stringify('11.0'),
      merge_base: JSON.stringify(''),
      api_feature_level: JSON.stringify(ZULIP_FEATURE_LEVEL),
    });
    if (bouncerOutcome(response) !== 'done') throw new Error(`analytics upload answered ${response.status}: ${String(response.body.msg ?? '')}`);
    const realms = response.body.realms as Record<string, unknown> | undefined;
    const mine = bouncerPushStatus(realms?.[realmUuid(services)]);
    if (mine) services.notifications.pushStatus = mine;
  } catch (error) {
    services.logger.warn({ err: error }, 'push bouncer analytics upload failed; will try again on schedule');
  }
}

/** Registers, uploads now, then every `seconds`; returns the stop function. */
export function startBouncerUpdates(services: Services, seconds: number): () => void {
  if (services.config.pushBouncerUrl === undefined) return () => {};
  void registerWithBouncer(services).then(() => uploadToBouncer(services));
  const timer = setInterval(() => void uploadToBouncer(services), seconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
