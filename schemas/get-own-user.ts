/** Parameters of GET /users/me. */
export const getOwnUser = {
  "$id": "get-own-user",
  "description": "GET /users/me",
  "type": "object",
  "properties": {}
} as const;
