/**
 * Parameters of GET /user_uploads/{realm_id_str}/{filename} (the JSON form under /api/v1, and the
 * file itself, its thumbnails and its short-lived URL outside it): none but the path.
 */
export const userUploadPath = { "$id": "user-upload-path", "description": "GET /user_uploads/{realm_id_str}/{filename}", "type": "object", "properties": {} } as const;
