/** Parameters of POST and DELETE /default_streams. */
export const defaultStream = {
  "$id": "default-stream",
  "description": "POST and DELETE /default_streams",
  "type": "object",
  "properties": {
    "stream_id": { "type": "integer" }
  },
  "required": ["stream_id"]
} as const;
