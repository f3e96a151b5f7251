/** Parameters of DELETE /scheduled_messages/{scheduled_message_id}. */
export const deleteScheduledMessage = { "$id": "delete-scheduled-message", "description": "DELETE /scheduled_messages/{scheduled_message_id}", "type": "object", "properties": {} } as const;
