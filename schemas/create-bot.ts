/** Parameters of POST /bots (Zulip's add_bot_backend). */
export const createBot = {
  "$id": "create-bot",
  "description": "POST /bots",
  "type": "object",
  "properties": {
    "full_name": { "type": "string" },
    "short_name": { "type": "string" },
    "bot_type": { "type": "integer", "default": 1 },
    "payload_url": { "type": ["string"], "default": "" },
    "service_name": { "type": "string" },
    "config_data": { "type": "object", "additionalProperties": { "type": "string" } },
    "interface_type": { "type": "integer", "default": 1 },
    "default_sending_stream": { "type": "string" },
    "default_events_register_stream": { "type": "string" },
    "default_all_public_streams": { "type": "boolean" }
  },
  "required": ["full_name", "short_name"]
} as const;
