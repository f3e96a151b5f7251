/** Parameters of POST /users/me/status. */
export const updateStatus = {
  "$id": "update-status",
  "description": "POST /users/me/status",
  "type": "object",
  "properties": {
    "status_text": { "type": "string" },
    "away": { "type": "boolean" },
    "emoji_name": { "type": "string" },
    "emoji_code": { "type": "string" },
    "reaction_type": { "type": "string" }
  }
} as const;
