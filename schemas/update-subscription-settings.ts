/** Parameters of POST /users/me/subscriptions/properties. */
export const updateSubscriptionSettings = {
  "$id": "update-subscription-settings",
  "description": "POST /users/me/subscriptions/properties",
  "type": "object",
  "properties": {
    "subscription_data": {
      "type": "array",
      "items": {
        "type": "object",
        "required": ["stream_id", "property", "value"],
        "properties": {
          "stream_id": { "type": "integer" },
          "property": { "type": "string" },
          "value": {}
        }
      }
    }
  },
  "required": ["subscription_data"]
} as const;
