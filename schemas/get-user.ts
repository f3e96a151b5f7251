/** Parameters of GET /users/{user_id}. */
export const getUser = {
  "$id": "get-user",
  "description": "GET /users/{user_id}",
  "type": "object",
  "properties": {
    "client_gravatar": { "type": "boolean", "default": true },
    "include_custom_profile_fields": { "type": "boolean", "default": false }
  }
} as const;
