/** Parameters of PATCH /user_groups/{user_group_id}: every setting only as `{new, old}`. */
import { groupSettingUpdate } from './group-setting-value.js';

export const updateUserGroup = {
  "$id": "update-user-group",
  "description": "PATCH /user_groups/{user_group_id}",
  "type": "object",
  "properties": {
    "name": { "type": "string" },
    "description": { "type": "string" },
    "deactivated": { "type": "boolean" },
    "can_add_members_group": groupSettingUpdate,
    "can_join_group": groupSettingUpdate,
    "can_leave_group": groupSettingUpdate,
    "can_manage_group": groupSettingUpdate,
    "can_mention_group": groupSettingUpdate,
    "can_remove_members_group": groupSettingUpdate
  }
} as const;
