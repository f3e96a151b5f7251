/** Parameters of DELETE /messages/{message_id}. */
export const deleteMessage = { "$id": "delete-message", "description": "DELETE /messages/{message_id}", "type": "object", "properties": {} } as const;
