/** Organization settings: `PATCH /realm`, `PATCH /realm/user_settings_defaults`, `POST /realm/test_welcome_bot_custom_message`. */
import type { Services } from '../services.js';
import * as schemas from '../../schemas/index.js';
import { me, type Request } from './route.js';
import { testWelcomeBotCustomMessage as sendTest, updateRealm as update } from '../actions/realm-settings.js';
import { updateUserSettingsDefaults } from '../actions/realm-user-defaults.js';

/** PATCH /realm */
export function updateRealm(services: Services, request: Request<typeof schemas.updateRealm>) {
  return update(services, me(request), request.params);
}

/** PATCH /realm/user_settings_defaults */
export async function updateRealmUserSettingsDefaults(services: Services, request: Request<typeof schemas.updateRealmUserSettingsDefaults>) {
  await updateUserSettingsDefaults(services, me(request), request.params);
  return {};
}

/** POST /realm/test_welcome_bot_custom_message */
export async function testWelcomeBotCustomMessage(services: Services, request: Request<typeof schemas.testWelcomeBotCustomMessage>) {
  return { message_id: await sendTest(services, me(request), request.params.welcome_message_custom_text) };
}
