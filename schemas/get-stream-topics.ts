/** Parameters of GET /users/me/{stream_id}/topics. */
export const getStreamTopics = {
  "$id": "get-stream-topics",
  "description": "GET /users/me/{stream_id}/topics",
  "type": "object",
  "properties": { "allow_empty_topic_name": { "type": "boolean", "default": false } }
} as const;
