/** Parameters of POST /users/{user_id}/reactivate. */
export const reactivateUser = {
  "$id": "reactivate-user",
  "description": "POST /users/{user_id}/reactivate",
  "type": "object",
  "properties": {}
} as const;
