/** Parameters of DELETE /users/me/subscriptions. */
export const unsubscribe = {
  "$id": "unsubscribe",
  "description": "DELETE /users/me/subscriptions",
  "type": "object",
  "properties": {
    "subscriptions": { "type": "array", "items": { "type": "string" } },
    "principals": { "type": "array", "items": { "type": ["string", "integer"] } }
  },
  "required": ["subscriptions"]
} as const;
