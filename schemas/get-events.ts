/** Parameters of GET /events. */
export const getEvents = {
  "$id": "get-events",
  "description": "GET /events",
  "type": "object",
  "properties": {
    "queue_id": { "type": "string" },
    "last_event_id": { "type": "integer" },
    "dont_block": { "type": "boolean", "default": false }
  },
  "required": ["queue_id", "last_event_id"]
} as const;
