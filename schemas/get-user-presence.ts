/** Parameters of GET /users/{user_id_or_email}/presence: the path's only. */
export const getUserPresence = {
  "$id": "get-user-presence",
  "description": "GET /users/{user_id_or_email}/presence",
  "type": "object",
  "properties": {}
} as const;
