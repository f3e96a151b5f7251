/** Parameters of GET /get_stream_id. */
export const getStreamId = {
  "$id": "get-stream-id",
  "description": "GET /get_stream_id",
  "type": "object",
  "properties": { "stream": { "type": "string" } },
  "required": ["stream"]
} as const;
