/** Parameters of POST /messages/flags. */
export const updateMessageFlags = {
  "$id": "update-message-flags",
  "description": "POST /messages/flags",
  "type": "object",
  "properties": {
    "messages": { "type": "array", "items": { "type": "integer" } },
    "op": { "type": "string" },
    "flag": { "type": "string" }
  },
  "required": ["messages", "op", "flag"]
} as const;
