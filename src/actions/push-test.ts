/**
 * POST /mobile_push/test_notification (Zulip's send_test_push_notification_api and
 * send_test_push_notification): a test notification to the device with `token`, or to every
 * device of the user, through the bouncer's `push/test_notification`.
 */
import { ApiError } from '../domain/errors.js';
import { basePayload } from '../domain/push-payloads.js';
import { checkHuman, type TokenRecord } from '../domain/push-devices.js';
import type { UserRecord } from '../domain/users.js';
import { pushDeviceBook } from '../queries/push-devices.js';
import type { Services } from '../services.js';
import { postJsonToBouncer, realmUuid, userUuid, type BouncerResponse } from './push-bouncer.js';
import { pushRealm } from './push-notify.js';

const deviceNotRecognized = () => new ApiError('INVALID_PUSH_DEVICE_TOKEN', 'Device not recognized', 400);

/** One device's test notification; the bouncer's refusals become the client's errors, as in Zulip. */
async function sendOne(services: Services, url: string, user: UserRecord, device: TokenRecord): Promise<void> {
  let response: BouncerResponse;
  try {
    response = await postJsonToBouncer(services, url, 'push/test_notification', {
      realm_uuid: realmUuid(services),
      user_uuid: userUuid(services, user.id),
      user_id: user.id,
      token: device.token,
      // Zulip's PushDeviceToken kinds: 1 APNs, 2 FCM.
      token_kind: device.tokenKind === 'apns' ? 1 : 2,
      base_payload: basePayload(pushRealm(services), user.id),
    });
  } catch (error) {
    services.logger.error({ err: error }, 'push bouncer unreachable for a test notification');
    throw new ApiError('BAD_REQUEST', `${error instanceof Error ? error.name : 'Error'} while trying to connect to push notification bouncer`, 502);
  }
  const { status, body } = response;
  if (status >= 500) throw new ApiError('BAD_REQUEST', `Received ${status} from push notification bouncer`, 502);
  if (status >= 400 && body.code === 'INVALID_REMOTE_PUSH_DEVICE_TOKEN') throw new ApiError('INVALID_REMOTE_PUSH_DEVICE_TOKEN', 'Device not recognized by the push bouncer', 400);
  if (status >= 400) throw new ApiError('BAD_REQUEST', typeof body.msg === 'string' ? body.msg : 'Error received from push notification bouncer', 400);
}

export async function sendTestNotification(services: Services, user: UserRecord, token: string | undefined): Promise<void> {
  checkHuman(user);
  const tokens = pushDeviceBook(services).list(user.id).filter((record): record is TokenRecord => record.kind === 'token');
  const devices = token === undefined ? tokens : tokens.filter((device) => device.token === token);
  if (token !== undefined && devices.length === 0) throw deviceNotRecognized();
  const url = services.config.pushBouncerUrl;
  // Without a push service Zulip has nowhere to send it, and answers success all the same.
  if (url === undefined) return;
  for (const device of devices) await sendOne(services, url, user, device);
}
