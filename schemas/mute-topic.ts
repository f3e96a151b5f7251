/** Parameters of PATCH /users/me/subscriptions/muted_topics. */
export const muteTopic = {
  "$id": "mute-topic",
  "description": "PATCH /users/me/subscriptions/muted_topics",
  "type": "object",
  "properties": {
    "stream_id": { "type": "integer" },
    "stream": { "type": "string" },
    "topic": { "type": "string", "maxLength": 60 },
    "op": { "type": "string", "enum": ["add", "remove"] }
  },
  "required": ["topic", "op"]
} as const;
