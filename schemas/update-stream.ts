/** Parameters of PATCH /streams/{stream_id}: every group setting only as `{new, old}`. */
import { groupSettingUpdate } from './group-setting-value.js';

export const updateStream = {
  "$id": "update-stream",
  "description": "PATCH /streams/{stream_id}",
  "type": "object",
  "properties": {
    "description": { "type": "string", "maxLength": 1024 },
    "new_name": { "type": "string" },
    "is_private": { "type": "boolean" },
    "is_web_public": { "type": "boolean" },
    "history_public_to_subscribers": { "type": "boolean" },
    "is_default_stream": { "type": "boolean" },
    "message_retention_days": { "type": ["integer", "string"], "x-json-or-raw": true },
    "is_archived": { "type": "boolean" },
    "folder_id": { "type": ["integer", "null"] },
    "topics_policy": { "type": "string", "enum": ["inherit", "allow_empty_topic", "disable_empty_topic", "empty_topic_only"] },
    "can_add_subscribers_group": groupSettingUpdate,
    "can_administer_channel_group": groupSettingUpdate,
    "can_delete_any_message_group": groupSettingUpdate,
    "can_delete_own_message_group": groupSettingUpdate,
    "can_move_messages_out_of_channel_group": groupSettingUpdate,
    "can_move_messages_within_channel_group": groupSettingUpdate,
    "can_remove_subscribers_group": groupSettingUpdate,
    "can_resolve_topics_group": groupSettingUpdate,
    "can_send_message_group": groupSettingUpdate,
    "can_subscribe_group": groupSettingUpdate
  }
} as const;
