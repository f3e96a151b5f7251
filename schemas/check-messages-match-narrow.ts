/** Parameters of GET /messages/matches_narrow. */
export const checkMessagesMatchNarrow = {
  "$id": "check-messages-match-narrow",
  "description": "GET /messages/matches_narrow",
  "type": "object",
  "properties": {
    "msg_ids": { "type": "array", "items": { "type": "integer" } },
    "narrow": { "type": "array" }
  },
  "required": ["msg_ids", "narrow"]
} as const;
