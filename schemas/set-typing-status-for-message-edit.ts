/** Parameters of POST /messages/{message_id}/typing. */
export const setTypingStatusForMessageEdit = {
  "$id": "set-typing-status-for-message-edit",
  "description": "POST /messages/{message_id}/typing",
  "type": "object",
  "properties": {
    "op": { "type": "string", "enum": ["start", "stop"] }
  },
  "required": ["op"]
} as const;
