/** Parameters of POST /users/me/presence. */
export const updatePresence = {
  "$id": "update-presence",
  "description": "POST /users/me/presence",
  "type": "object",
  "properties": {
    "status": { "type": "string" },
    "ping_only": { "type": "boolean", "default": false },
    "new_user_input": { "type": "boolean", "default": false },
    "slim_presence": { "type": "boolean", "default": false },
    "last_update_id": { "type": "integer" },
    "history_limit_days": { "type": "integer" }
  },
  "required": ["status"]
} as const;
