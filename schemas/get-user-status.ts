/** Parameters of GET /users/{user_id}/status. */
export const getUserStatus = {
  "$id": "get-user-status",
  "description": "GET /users/{user_id}/status",
  "type": "object",
  "properties": {}
} as const;
