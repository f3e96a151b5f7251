/** Parameters of PATCH /settings: the account fields and every personal setting a user may change (types and enums; the rest of the rules in domain/user-settings.ts). */
import { personalSettingProperties } from './personal-settings.js';

export const updateSettings = {
  "$id": "update-settings",
  "description": "PATCH /settings",
  "type": "object",
  "properties": {
    "full_name": { "type": "string" },
    "email": { "type": "string" },
    "old_password": { "type": "string" },
    "new_password": { "type": "string" },
    "default_language": { "type": "string" },
    "timezone": { "type": "string" },
    "enable_marketing_emails": { "type": "boolean" },
    "enable_login_emails": { "type": "boolean" },
    "allow_private_data_export": { "type": "boolean" },
    ...personalSettingProperties
  }
} as const;
