/** Push device registration: `/mobile_push/register` and the deprecated token endpoints. */
import type { Services } from '../services.js';
import * as schemas from '../../schemas/index.js';
import { me, type Request } from './route.js';
import * as actions from '../actions/push-devices.js';
import { sendTestNotification } from '../actions/push-test.js';

/** POST /mobile_push/register */
export async function registerPushDevice(services: Services, request: Request<typeof schemas.registerPushDevice>) {
  const p = request.params;
  await actions.registerPushDevice(services, me(request), {
    tokenKind: p.token_kind,
    pushAccountId: p.push_account_id,
    pushPublicKey: p.push_public_key,
    bouncerPublicKey: p.bouncer_public_key,
    encryptedPushRegistration: p.encrypted_push_registration,
  });
  return {};
}

/** POST /users/me/apns_device_token */
export async function addApnsToken(services: Services, request: Request<typeof schemas.addApnsToken>) {
  await actions.addDeviceToken(services, me(request), 'apns', request.params.token, request.params.appid);
  return {};
}

/** POST /users/me/android_gcm_reg_id */
export async function addFcmToken(services: Services, request: Request<typeof schemas.deviceToken>) {
  await actions.addDeviceToken(services, me(request), 'fcm', request.params.token, null);
  return {};
}

/** DELETE /users/me/apns_device_token */
export async function removeApnsToken(services: Services, request: Request<typeof schemas.deviceToken>) {
  await actions.removeDeviceToken(services, me(request), 'apns', request.params.token);
  return {};
}

/** DELETE /users/me/android_gcm_reg_id */
export async function removeFcmToken(services: Services, request: Request<typeof schemas.deviceToken>) {
  await actions.removeDeviceToken(services, me(request), 'fcm', request.params.token);
  return {};
}

/** POST /mobile_push/test_notification */
export async function testNotify(services: Services, request: Request<typeof schemas.testNotify>) {
  await sendTestNotification(services, me(request), request.params.token);
  return {};
}
