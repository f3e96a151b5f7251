/** Parameters of DELETE /users/me/alert_words. */
export const removeAlertWords = {
  "$id": "remove-alert-words",
  "description": "DELETE /users/me/alert_words",
  "type": "object",
  "properties": {
    "alert_words": { "type": "array", "items": { "type": "string" } }
  },
  "required": ["alert_words"]
} as const;
