/** Parameters of POST /users/me/alert_words (lengths are checked by the rule, with Zulip's message). */
export const addAlertWords = {
  "$id": "add-alert-words",
  "description": "POST /users/me/alert_words",
  "type": "object",
  "properties": {
    "alert_words": { "type": "array", "items": { "type": "string" } }
  },
  "required": ["alert_words"]
} as const;
