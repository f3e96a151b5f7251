/** Parameters of GET /realm/linkifiers. */
export const getLinkifiers = {
  "$id": "get-linkifiers",
  "description": "GET /realm/linkifiers",
  "type": "object",
  "properties": {}
} as const;
