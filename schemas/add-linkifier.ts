/** Parameters of POST /realm/filters. */
export const addLinkifier = {
  "$id": "add-linkifier",
  "description": "POST /realm/filters",
  "type": "object",
  "properties": {
    "pattern": { "type": "string" },
    "url_template": { "type": "string" }
  },
  "required": ["pattern", "url_template"]
} as const;
