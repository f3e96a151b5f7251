/** Parameters of DELETE /realm/emoji/{emoji_name}. */
export const deactivateCustomEmoji = { "$id": "deactivate-custom-emoji", "description": "DELETE /realm/emoji/{emoji_name}", "type": "object", "properties": {} } as const;
