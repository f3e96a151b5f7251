/** Parameters of GET /attachments. */
export const getAttachments = { "$id": "get-attachments", "description": "GET /attachments", "type": "object", "properties": {} } as const;
