/** Parameters of DELETE /reminders/{reminder_id}. */
export const deleteReminder = { "$id": "delete-reminder", "description": "DELETE /reminders/{reminder_id}", "type": "object", "properties": {} } as const;
