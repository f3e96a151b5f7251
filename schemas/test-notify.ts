/** Parameters of POST /mobile_push/test_notification. */
export const testNotify = {
  "$id": "test-notify",
  "description": "POST /mobile_push/test_notification",
  "type": "object",
  "properties": {
    "token": { "type": "string" }
  }
} as const;
