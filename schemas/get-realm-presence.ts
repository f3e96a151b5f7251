/** Parameters of GET /realm/presence. */
export const getRealmPresence = {
  "$id": "get-realm-presence",
  "description": "GET /realm/presence",
  "type": "object",
  "properties": {}
} as const;
