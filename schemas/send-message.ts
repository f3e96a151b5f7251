/** Parameters of POST /messages. */
export const sendMessage = {
  "$id": "send-message",
  "description": "POST /messages",
  "type": "object",
  "properties": {
    "type": { "type": "string", "enum": ["direct", "private", "stream", "channel"] },
    "to": { "x-json-or-raw": true },
    "content": { "type": "string" },
    "topic": { "type": "string" },
    "subject": { "type": "string" },
    "queue_id": { "type": "string" },
    "local_id": { "type": "string" },
    "read_by_sender": { "type": "boolean" },
    "widget_content": { "type": "string" }
  },
  "required": ["type", "content"]
} as const;
