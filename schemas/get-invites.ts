/** Parameters of GET /invites. */
export const getInvites = { "$id": "get-invites", "description": "GET /invites", "type": "object", "properties": {} } as const;
