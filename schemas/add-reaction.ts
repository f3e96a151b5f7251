/** Parameters of POST /messages/{message_id}/reactions. */
export const addReaction = {
  "$id": "add-reaction",
  "description": "POST /messages/{message_id}/reactions",
  "type": "object",
  "properties": {
    "emoji_name": { "type": "string" },
    "emoji_code": { "type": "string" },
    "reaction_type": { "type": "string" }
  },
  "required": ["emoji_name"]
} as const;
