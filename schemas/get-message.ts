/** Parameters of GET /messages/{message_id}. */
export const getMessage = {
  "$id": "get-message",
  "description": "GET /messages/{message_id}",
  "type": "object",
  "properties": {
    "apply_markdown": { "type": "boolean", "default": true },
    "client_gravatar": { "type": "boolean", "default": true },
    "allow_empty_topic_name": { "type": "boolean", "default": false }
  }
} as const;
