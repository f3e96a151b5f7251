/** Parameters of POST /register. */
export const registerQueue = {
  "$id": "register-queue",
  "description": "POST /register",
  "type": "object",
  "properties": {
    "event_types": { "type": ["array", "null"], "items": { "type": "string" } },
    "fetch_event_types": { "type": ["array", "null"], "items": { "type": "string" } },
    "narrow": { "type": "array", "default": [] },
    "apply_markdown": { "type": "boolean", "default": false },
    "client_gravatar": { "type": "boolean", "default": true },
    "include_subscribers": { "x-json-or-raw": true, "anyOf": [{ "type": "boolean" }, { "type": "string", "enum": ["true", "false", "partial"] }], "default": false },
    "slim_presence": { "type": "boolean", "default": false },
    "presence_history_limit_days": { "type": ["integer", "null"] },
    "all_public_streams": { "type": "boolean", "default": false },
    "queue_lifespan_secs": { "type": "integer", "minimum": 0, "default": 0 },
    "client_capabilities": { "type": "object", "default": {} }
  }
} as const;
