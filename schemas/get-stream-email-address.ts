/** Parameters of GET /streams/{stream_id}/email_address. */
export const getStreamEmailAddress = {
  "$id": "get-stream-email-address",
  "description": "GET /streams/{stream_id}/email_address",
  "type": "object",
  "properties": {
    "sender_id": { "type": "integer" }
  }
} as const;
