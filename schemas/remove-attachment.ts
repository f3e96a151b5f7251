/** Parameters of DELETE /attachments/{attachment_id}. */
export const removeAttachment = { "$id": "remove-attachment", "description": "DELETE /attachments/{attachment_id}", "type": "object", "properties": {} } as const;
