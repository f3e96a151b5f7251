/** Parameters of POST /invites; POST /invites/multiuse takes the same ones but the addresses and the referrer's notice. */
export const invitationFields = {
  // Null: never expires; absent: the server's default (14400 minutes).
  "invite_expires_in_minutes": { "type": ["integer", "null"], "minimum": 1, "maximum": 1000000000 },
  "invite_as": { "type": "integer", "enum": [100, 200, 300, 400, 600], "default": 400 },
  "group_ids": { "type": "array", "items": { "type": "integer" } },
  "include_realm_default_subscriptions": { "type": "boolean", "default": false },
  "welcome_message_custom_text": { "type": "string", "maxLength": 8000 }
} as const;

export const sendInvites = {
  "$id": "send-invites",
  "description": "POST /invites",
  "type": "object",
  "properties": {
    "invitee_emails": { "type": "string" },
    "stream_ids": { "type": "array", "items": { "type": "integer" } },
    "notify_referrer_on_join": { "type": "boolean", "default": true },
    ...invitationFields
  },
  "required": ["invitee_emails", "stream_ids"]
} as const;
