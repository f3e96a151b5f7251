/** Parameters of POST /user_groups/create. */
import { groupSettingValue } from './group-setting-value.js';

export const createUserGroup = {
  "$id": "create-user-group",
  "description": "POST /user_groups/create",
  "type": "object",
  "properties": {
    "name": { "type": "string" },
    "description": { "type": "string" },
    "members": { "type": "array", "items": { "type": "integer" } },
    "subgroups": { "type": "array", "items": { "type": "integer" } },
    "can_add_members_group": groupSettingValue,
    "can_join_group": groupSettingValue,
    "can_leave_group": groupSettingValue,
    "can_manage_group": groupSettingValue,
    "can_mention_group": groupSettingValue,
    "can_remove_members_group": groupSettingValue
  },
  "required": ["name", "description", "members"]
} as const;
