/** Parameters of POST /user_topics. */
export const updateUserTopic = {
  "$id": "update-user-topic",
  "description": "POST /user_topics",
  "type": "object",
  "properties": {
    "stream_id": { "type": "integer" },
    "topic": { "type": "string", "maxLength": 60 },
    "visibility_policy": { "type": "integer", "enum": [0, 1, 2, 3] }
  },
  "required": ["stream_id", "topic", "visibility_policy"]
} as const;
