/** Parameters of POST /mark_stream_as_read. */
export const markStreamAsRead = {
  "$id": "mark-stream-as-read",
  "description": "POST /mark_stream_as_read",
  "type": "object",
  "properties": { "stream_id": { "type": "integer" } },
  "required": ["stream_id"]
} as const;
