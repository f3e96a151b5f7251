/** Parameters of GET /users/me/alert_words. */
export const getAlertWords = {
  "$id": "get-alert-words",
  "description": "GET /users/me/alert_words",
  "type": "object",
  "properties": {}
} as const;
