/** Parameters of POST /user_uploads: none; the file is a multipart part with a file name. */
export const uploadFile = { "$id": "upload-file", "description": "POST /user_uploads", "type": "object", "properties": {} } as const;
