/** Parameters of POST /submessage (undocumented in Zulip's OpenAPI; its view's parameters). */
export const processSubmessage = {
  "$id": "process-submessage",
  "description": "POST /submessage",
  "type": "object",
  "properties": {
    "message_id": { "type": "integer" },
    "msg_type": { "type": "string" },
    "content": { "type": "string" }
  },
  "required": ["message_id", "msg_type", "content"]
} as const;
