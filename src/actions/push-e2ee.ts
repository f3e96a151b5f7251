/**
 * Notifications to the devices registered end to end (`POST /mobile_push/register`), as Zulip 11's
 * send_push_notifications: the data sealed for each device with the push public key it gave
 * (libsodium's sealed box, crypto_box_seal, as Zulip's SealedBox), one `remotes/push/e2ee/notify`
 * with a push request per device; the devices the bouncer says are gone are forgotten by the caller.
 */
import sodium from 'libsodium-wrappers';
import type { Payload } from '../domain/push-payloads.js';
import { registrationKey } from '../domain/push-devices.js';
import { e2eePushRequest, type E2eeDevice } from '../domain/push-e2ee-payloads.js';
import { pushDeviceBook } from '../queries/push-devices.js';
import type { Services } from '../services.js';
import { bouncerOutcome, bouncerPushStatus, postJsonToBouncer, realmUuid, type BouncerResponse } from './push-bouncer.js';

/** A device the bouncer accepted: where it is (its device id) and the key to seal for. */
export interface E2eeTarget extends E2eeDevice {
  pushPublicKey: string;
}

/** The user's end-to-end registrations the bouncer accepted. */
export function e2eeTargetsOf(services: Services, userId: number): E2eeTarget[] {
  const targets: E2eeTarget[] = [];
  for (const record of pushDeviceBook(services).list(userId)) {
    if (record.kind !== 'e2ee' || record.status !== 'active' || record.bouncerDeviceId === null) continue;
    targets.push({ bouncerDeviceId: record.bouncerDeviceId, pushAccountId: record.pushAccountId, tokenKind: record.tokenKind, pushPublicKey: record.pushPublicKey });
  }
  return targets;
}

/** Seals `data` (as JSON) for the holder of the secret key matching `publicKeyBase64`; base64. Undefined for a key that is not one. */
export async function sealFor(publicKeyBase64: string, data: Payload): Promise<string | undefined> {
  await sodium.ready;
  const key = Buffer.from(publicKeyBase64, 'base64');
  if (key.length !== sodium.crypto_box_PUBLICKEYBYTES) return undefined;
  return Buffer.from(sodium.crypto_box_seal(Buffer.from(JSON.stringify(data)), key)).toString('base64');
}

/**
 * Zulip's send_push_notifications on MissingRemoteRealmError and
 * PushNotificationsDisallowedByBouncerError: the organization is unknown to the bouncer, or its
 * plan allows no pushes; push notifications count as off (no end) until the bouncer says otherwise.
 */
function noteRefusal(services: Services, response: BouncerResponse): void {
  const { code, msg } = response.body;
  if (code !== 'MISSING_REMOTE_REALM' && code !== 'PUSH_NOTIFICATIONS_DISALLOWED') return;
  services.logger.warn({ code, msg }, 'Bouncer refused to send E2EE push notification');
  services.notifications.pushStatus = { canPush: false, expectedEndTimestamp: null };
}

export interface E2eeOutcome {
  outcome: 'done' | 'retry' | 'refused';
  /** Registration keys of the devices the bouncer no longer has. */
  gone: string[];
}

/** Sends `data` to the user's devices; 'retry' when the bouncer could not take it now. */
export async function sendE2eePush(services: Services, url: string, targets: readonly E2eeTarget[], data: Payload, removal: boolean): Promise<E2eeOutcome> {
  const requests: Payload[] = [];
  for (const target of targets) {
    const sealed = await sealFor(target.pushPublicKey, data);
    if (sealed === undefined) services.logger.warn({ pushAccountId: target.pushAccountId }, 'push device has no usable public key');
    else requests.push(e2eePushRequest(target, sealed, removal));
  }
  if (requests.length === 0) return { outcome: 'done', gone: [] };
  let response: BouncerResponse | Error;
  try {
    response = await postJsonToBouncer(services, url, 'push/e2ee/notify', { realm_uuid: realmUuid(services), push_requests: requests });
  } catch (error) {
    response = error instanceof Error ? error : new Error(String(error));
  }
  const outcome = bouncerOutcome(response);
  if (outcome === 'refused') noteRefusal(services, response as BouncerResponse);
  if (outcome !== 'done') return { outcome, gone: [] };
  const status = bouncerPushStatus((response as BouncerResponse).body.realm_push_status);
  if (status) services.notifications.pushStatus = status;
  const deleted = (response as BouncerResponse).body.delete_device_ids;
  const goneIds = new Set(Array.isArray(deleted) ? deleted.filter((id): id is number => typeof id === 'number') : []);
  return { outcome, gone: targets.filter((target) => goneIds.has(target.bouncerDeviceId)).map((target) => registrationKey(target.pushAccountId)) };
}
