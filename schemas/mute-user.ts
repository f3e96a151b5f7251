/** Parameters of POST /users/me/muted_users/{muted_user_id}. */
export const muteUser = {
  "$id": "mute-user",
  "description": "POST /users/me/muted_users/{muted_user_id}",
  "type": "object",
  "properties": {}
} as const;
