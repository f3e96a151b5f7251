/** A draft as clients send it (Zulip's DraftData: extra fields, `id` included, are refused). */
export const draftObjectSchema = {
  "type": "object",
  "additionalProperties": false,
  "required": ["type", "to", "topic", "content"],
  "properties": {
    "type": { "type": "string", "enum": ["", "stream", "private"] },
    "to": { "type": "array", "items": { "type": "integer" } },
    "topic": { "type": "string" },
    "content": { "type": "string" },
    "timestamp": { "type": ["number", "null"] }
  }
} as const;
