/** Parameters of GET /bots. */
export const getBots = {
  "$id": "get-bots",
  "description": "GET /bots",
  "type": "object",
  "properties": {}
} as const;
