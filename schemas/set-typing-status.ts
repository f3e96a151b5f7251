/** Parameters of POST /typing. */
export const setTypingStatus = {
  "$id": "set-typing-status",
  "description": "POST /typing",
  "type": "object",
  "properties": {
    "op": { "type": "string", "enum": ["start", "stop"] },
    "type": { "type": "string", "enum": ["direct", "stream", "channel"], "default": "direct" },
    "to": { "type": "array", "items": { "type": "integer" } },
    "stream_id": { "type": "integer" },
    "topic": { "type": "string" }
  },
  "required": ["op"]
} as const;
