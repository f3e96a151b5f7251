/** Parameters of GET /scheduled_messages. */
export const getScheduledMessages = { "$id": "get-scheduled-messages", "description": "GET /scheduled_messages", "type": "object", "properties": {} } as const;
