/** Parameters of GET /messages/{message_id}/history. */
export const getMessageHistory = {
  "$id": "get-message-history",
  "description": "GET /messages/{message_id}/history",
  "type": "object",
  "properties": { "allow_empty_topic_name": { "type": "boolean", "default": false } }
} as const;
