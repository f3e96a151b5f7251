/** Parameters of POST /mobile_push/register (feature level 406: every one required). */
export const registerPushDevice = {
  "$id": "register-push-device",
  "description": "POST /mobile_push/register",
  "type": "object",
  "properties": {
    "token_kind": { "type": "string", "enum": ["fcm", "apns"] },
    "push_account_id": { "type": "integer" },
    "push_public_key": { "type": "string" },
    "bouncer_public_key": { "type": "string" },
    "encrypted_push_registration": { "type": "string" }
  },
  "required": ["token_kind", "push_account_id", "push_public_key", "bouncer_public_key", "encrypted_push_registration"]
} as const;
