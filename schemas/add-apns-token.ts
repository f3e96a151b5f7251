/** Parameters of POST /users/me/apns_device_token (deprecated). */
export const addApnsToken = {
  "$id": "add-apns-token",
  "description": "POST /users/me/apns_device_token",
  "type": "object",
  "properties": {
    "token": { "type": "string" },
    "appid": { "type": "string" }
  },
  "required": ["token", "appid"]
} as const;
