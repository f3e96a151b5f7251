/** Parameters of GET /users. */
export const getUsers = {
  "$id": "get-users",
  "description": "GET /users",
  "type": "object",
  "properties": {
    "client_gravatar": { "type": "boolean", "default": true },
    "include_custom_profile_fields": { "type": "boolean", "default": false },
    "user_ids": { "type": "array", "items": { "type": "integer" } }
  }
} as const;
