/** Parameters of GET /reminders. */
export const getReminders = { "$id": "get-reminders", "description": "GET /reminders", "type": "object", "properties": {} } as const;
