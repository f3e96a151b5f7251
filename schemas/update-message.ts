/** Parameters of PATCH /messages/{message_id}. */
export const updateMessage = {
  "$id": "update-message",
  "description": "PATCH /messages/{message_id}",
  "type": "object",
  "properties": {
    "content": { "type": "string" },
    "topic": { "type": "string" },
    "subject": { "type": "string" },
    "stream_id": { "type": "integer" },
    "propagate_mode": { "type": "string", "enum": ["change_one", "change_later", "change_all"], "default": "change_one" },
    "send_notification_to_old_thread": { "type": "boolean", "default": false },
    "send_notification_to_new_thread": { "type": "boolean", "default": true },
    "prev_content_sha256": { "type": "string" }
  }
} as const;
