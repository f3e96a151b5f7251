/** Parameters of POST /messages/render. */
export const renderMessage = {
  "$id": "render-message",
  "description": "POST /messages/render",
  "type": "object",
  "properties": {
    "content": { "type": "string" }
  },
  "required": ["content"]
} as const;
