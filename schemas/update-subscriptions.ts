/** Parameters of PATCH /users/me/subscriptions (legacy add/delete). */
export const updateSubscriptions = {
  "$id": "update-subscriptions",
  "description": "PATCH /users/me/subscriptions (legacy add/delete)",
  "type": "object",
  "properties": {
    "add": {
      "type": "array",
      "items": {
        "type": "object",
        "required": ["name"],
        "properties": { "name": { "type": "string" }, "description": { "type": "string" }, "color": { "type": "string" } }
      }
    },
    "delete": { "type": "array", "items": { "type": "string" } },
    "principals": { "type": "array", "items": { "type": ["string", "integer"] } },
    "authorization_errors_fatal": { "type": "boolean", "default": true },
    "invite_only": { "type": "boolean", "default": false },
    "history_public_to_subscribers": { "type": "boolean" }
  }
} as const;
