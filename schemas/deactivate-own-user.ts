/** Parameters of DELETE /users/me. */
export const deactivateOwnUser = {
  "$id": "deactivate-own-user",
  "description": "DELETE /users/me",
  "type": "object",
  "properties": {}
} as const;
