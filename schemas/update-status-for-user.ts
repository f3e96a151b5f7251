/** Parameters of POST /users/{user_id}/status (administrators). */
export const updateStatusForUser = {
  "$id": "update-status-for-user",
  "description": "POST /users/{user_id}/status",
  "type": "object",
  "properties": {
    "status_text": { "type": "string" },
    "emoji_name": { "type": "string" },
    "emoji_code": { "type": "string" },
    "reaction_type": { "type": "string" }
  }
} as const;
