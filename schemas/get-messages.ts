/** Parameters of GET /messages. */
export const getMessages = {
  "$id": "get-messages",
  "description": "GET /messages",
  "type": "object",
  "properties": {
    "anchor": { "type": "string", "x-raw": true },
    "include_anchor": { "type": "boolean", "default": true },
    "num_before": { "type": "integer", "minimum": 0, "default": 0 },
    "num_after": { "type": "integer", "minimum": 0, "default": 0 },
    "narrow": { "type": "array", "default": [] },
    "use_first_unread_anchor": { "type": "boolean", "default": false },
    "client_gravatar": { "type": "boolean", "default": true },
    "apply_markdown": { "type": "boolean", "default": true },
    "allow_empty_topic_name": { "type": "boolean", "default": false },
    "message_ids": { "type": "array", "items": { "type": "integer" } }
  }
} as const;
