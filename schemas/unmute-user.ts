/** Parameters of DELETE /users/me/muted_users/{muted_user_id}. */
export const unmuteUser = {
  "$id": "unmute-user",
  "description": "DELETE /users/me/muted_users/{muted_user_id}",
  "type": "object",
  "properties": {}
} as const;
