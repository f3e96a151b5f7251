/** Parameters of POST /realm/emoji/{emoji_name}: none; the image is a multipart part with a file name. */
export const uploadCustomEmoji = { "$id": "upload-custom-emoji", "description": "POST /realm/emoji/{emoji_name}", "type": "object", "properties": {} } as const;
