/** Parameters of POST /bots/{bot_id}/api_key/regenerate and DELETE /bots/{bot_id}: the path's only. */
export const botId = {
  "$id": "bot-id",
  "description": "POST /bots/{bot_id}/api_key/regenerate, DELETE /bots/{bot_id}",
  "type": "object",
  "properties": {}
} as const;
