/** Parameters of POST /fetch_api_key. */
export const fetchApiKey = {
  "$id": "fetch-api-key",
  "description": "POST /fetch_api_key",
  "type": "object",
  "properties": {
    "username": { "type": "string" },
    "password": { "type": "string" }
  },
  "required": ["username", "password"]
} as const;
