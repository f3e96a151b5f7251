/** Parameters of GET /users/me/subscriptions. */
export const getSubscriptions = {
  "$id": "get-subscriptions",
  "description": "GET /users/me/subscriptions",
  "type": "object",
  "properties": {
    "include_subscribers": { "type": "boolean", "default": false }
  }
} as const;
