/** Parameters of PATCH /bots/{bot_id} (Zulip's patch_bot_backend). */
export const updateBot = {
  "$id": "update-bot",
  "description": "PATCH /bots/{bot_id}",
  "type": "object",
  "properties": {
    "full_name": { "type": "string" },
    "role": { "type": "integer" },
    "bot_owner_id": { "type": "integer" },
    "config_data": { "type": "object", "additionalProperties": { "type": "string" } },
    "service_payload_url": { "type": ["string"] },
    "service_interface": { "type": "integer", "default": 1 },
    "default_sending_stream": { "type": "string" },
    "default_events_register_stream": { "type": "string" },
    "default_all_public_streams": { "type": "boolean" }
  }
} as const;
