/** Parameters of POST /mark_all_as_read. */
export const markAllAsRead = { "$id": "mark-all-as-read", "description": "POST /mark_all_as_read", "type": "object", "properties": {} } as const;
