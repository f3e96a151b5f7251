/** Parameters of POST /reminders. */
export const createReminder = {
  "$id": "create-reminder",
  "description": "POST /reminders",
  "type": "object",
  "properties": {
    "message_id": { "type": "integer" },
    "scheduled_delivery_timestamp": { "type": "integer" },
    // Zulip's max_reminder_note_length (POST /register).
    "note": { "type": "string", "maxLength": 1000, "x-error": "Maximum reminder note length: 1000 characters" }
  },
  "required": ["message_id", "scheduled_delivery_timestamp"]
} as const;
