/** Parameters of DELETE /messages/{message_id}/reactions. */
export const removeReaction = {
  "$id": "remove-reaction",
  "description": "DELETE /messages/{message_id}/reactions",
  "type": "object",
  "properties": {
    "emoji_name": { "type": "string" },
    "emoji_code": { "type": "string" },
    "reaction_type": { "type": "string" }
  }
} as const;
