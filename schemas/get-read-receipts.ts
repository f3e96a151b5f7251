/** Parameters of GET /messages/{message_id}/read_receipts (the message id is in the path). */
export const getReadReceipts = {
  "$id": "get-read-receipts",
  "description": "GET /messages/{message_id}/read_receipts",
  "type": "object",
  "properties": {}
} as const;
