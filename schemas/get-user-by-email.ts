/** Parameters of GET /users/{email}. */
export const getUserByEmail = {
  "$id": "get-user-by-email",
  "description": "GET /users/{email}",
  "type": "object",
  "properties": {
    "client_gravatar": { "type": "boolean", "default": true },
    "include_custom_profile_fields": { "type": "boolean", "default": false }
  }
} as const;
