/** Parameters of POST /scheduled_messages; PATCH takes the same ones, each optional. */
export const scheduledMessageFields = {
  "type": { "type": "string", "enum": ["direct", "private", "stream", "channel"] },
  // A channel id, or a list of user ids; an address in the list gets Zulip's own error (domain/scheduled-messages.ts).
  "to": { "anyOf": [{ "type": "integer" }, { "type": "array", "items": { "type": ["integer", "string"] } }] },
  "content": { "type": "string" },
  "topic": { "type": "string" },
  "subject": { "type": "string" },
  "scheduled_delivery_timestamp": { "type": "integer" }
} as const;

export const createScheduledMessage = {
  "$id": "create-scheduled-message",
  "description": "POST /scheduled_messages",
  "type": "object",
  "properties": {
    ...scheduledMessageFields,
    "read_by_sender": { "type": "boolean" }
  },
  "required": ["type", "to", "content", "scheduled_delivery_timestamp"]
} as const;
