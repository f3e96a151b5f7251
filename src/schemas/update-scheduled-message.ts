/** Parameters of PATCH /scheduled_messages/{scheduled_message_id}: every one optional, a partial edit. */
export const updateScheduledMessage = {
  "$id": "update-scheduled-message",
  "description": "PATCH /scheduled_messages/{scheduled_message_id}",
  "type": "object",
  "properties": {
    "type": { "type": "string", "enum": ["direct", "private", "stream", "channel"] },
    "to": { "anyOf": [{ "type": "integer" }, { "type": "array", "items": { "type": "integer" } }] },
    "content": { "type": "string" },
    "topic": { "type": "string" },
    "subject": { "type": "string" },
    "scheduled_delivery_timestamp": { "type": "integer" }
  }
} as const;
