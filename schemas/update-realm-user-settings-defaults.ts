/** Parameters of PATCH /realm/user_settings_defaults: the personal settings new users start with (types as PATCH /settings has them). */
import { personalSettingProperties } from './personal-settings.js';

export const updateRealmUserSettingsDefaults = {
  "$id": "update-realm-user-settings-defaults",
  "description": "PATCH /realm/user_settings_defaults",
  "type": "object",
  "properties": {
    ...personalSettingProperties
  }
} as const;
