/** Parameters of POST /users/me/subscriptions. */
export const subscribe = {
  "$id": "subscribe",
  "description": "POST /users/me/subscriptions",
  "type": "object",
  "properties": {
    "subscriptions": {
      "type": "array",
      "items": {
        "type": "object",
        "required": ["name"],
        "properties": {
          "name": { "type": "string" },
          "description": { "type": "string" },
          "color": { "type": "string" }
        }
      }
    },
    "principals": { "type": "array", "items": { "type": ["string", "integer"] } },
    "authorization_errors_fatal": { "type": "boolean", "default": true },
    "announce": { "type": "boolean", "default": false },
    "invite_only": { "type": "boolean", "default": false },
    "is_web_public": { "type": "boolean", "default": false },
    "is_default_stream": { "type": "boolean", "default": false },
    "history_public_to_subscribers": { "type": "boolean" },
    "send_new_subscription_messages": { "type": "boolean", "default": true }
  },
  "required": ["subscriptions"]
} as const;
