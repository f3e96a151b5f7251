/** Parameters of GET /realm/emoji (and of the custom emoji images outside /api/v1): none. */
export const getCustomEmoji = { "$id": "get-custom-emoji", "description": "GET /realm/emoji", "type": "object", "properties": {} } as const;
