/** Parameters of GET /drafts. */
export const getDrafts = { "$id": "get-drafts", "description": "GET /drafts", "type": "object", "properties": {} } as const;
