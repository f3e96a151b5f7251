/** Reading a user's push registrations from their actor. */
import { PersonalRecords } from '../actors/personal-records.js';
import { pushDevicesKind } from '../actors/push-devices.js';
import type { PushRegistrationRecord } from '../domain/push-devices.js';
import type { Services } from '../services.js';

export const pushDeviceBook = (services: Services) => new PersonalRecords<PushRegistrationRecord>(services.actors, pushDevicesKind);

/** POST /register's `push_devices`: each end-to-end registration's status, by push account id (Zulip 11). */
export function pushDevicesState(services: Services, userId: number): Record<string, { status: string; error_code: string | null }> {
  const state: Record<string, { status: string; error_code: string | null }> = {};
  for (const record of pushDeviceBook(services).list(userId)) {
    if (record.kind === 'e2ee') state[String(record.pushAccountId)] = { status: record.status, error_code: record.errorCode };
  }
  return state;
}

/** Zulip's push_notifications_configured: a bouncer and this server's registration with it. */
export function pushConfigured(services: Services): boolean {
  const { pushBouncerUrl, pushBouncerServerUuid, pushBouncerServerKey } = services.config;
  return pushBouncerUrl !== undefined && pushBouncerServerUuid !== '' && pushBouncerServerKey !== '';
}

/** The organization's `push_notifications_enabled` and its end: configured, and not refused by the bouncer's last answer. */
export function realmPushState(services: Services): { enabled: boolean; endTimestamp: number | null } {
  const status = services.notifications.pushStatus;
  return { enabled: pushConfigured(services) && (status?.canPush ?? true), endTimestamp: status?.expectedEndTimestamp ?? null };
}
