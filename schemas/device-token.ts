/** Parameters of the deprecated token endpoints that take only the token: POST /users/me/android_gcm_reg_id and both DELETEs. */
export const deviceToken = {
  "$id": "device-token",
  "description": "POST /users/me/android_gcm_reg_id, DELETE /users/me/apns_device_token, DELETE /users/me/android_gcm_reg_id",
  "type": "object",
  "properties": {
    "token": { "type": "string" }
  },
  "required": ["token"]
} as const;
