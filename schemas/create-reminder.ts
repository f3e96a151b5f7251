/** Parameters of POST /reminders. */
export const createReminder = {
  "$id": "create-reminder",
  "description": "POST /reminders",
  "type": "object",
  "properties": {
    "message_id": { "type": "integer" },
    "scheduled_delivery_timestamp": { "type": "integer" },
    // Its length (max_reminder_note_length) is checked once normalized, as Zulip does (domain/scheduled-messages.ts).
    "note": { "type": "string" }
  },
  "required": ["message_id", "scheduled_delivery_timestamp"]
} as const;
