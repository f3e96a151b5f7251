/** Parameters of POST /users/me/api_key/regenerate. */
export const regenerateApiKey = {
  "$id": "regenerate-api-key",
  "description": "POST /users/me/api_key/regenerate",
  "type": "object",
  "properties": {}
} as const;
