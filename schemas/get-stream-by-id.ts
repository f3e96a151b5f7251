/** Parameters of GET /streams/{stream_id}. */
export const getStreamById = { "$id": "get-stream-by-id", "description": "GET /streams/{stream_id}", "type": "object", "properties": {} } as const;
