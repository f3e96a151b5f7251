/** Parameters of POST /scheduled_messages. */
export const createScheduledMessage = {
  "$id": "create-scheduled-message",
  "description": "POST /scheduled_messages",
  "type": "object",
  "properties": {
    "type": { "type": "string", "enum": ["direct", "private", "stream", "channel"] },
    "to": { "anyOf": [{ "type": "integer" }, { "type": "array", "items": { "type": "integer" } }] },
    "content": { "type": "string" },
    "topic": { "type": "string" },
    "subject": { "type": "string" },
    "scheduled_delivery_timestamp": { "type": "integer" },
    "read_by_sender": { "type": "boolean" }
  },
  "required": ["type", "to", "content", "scheduled_delivery_timestamp"]
} as const;
