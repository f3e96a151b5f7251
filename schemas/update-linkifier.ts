/** Parameters of PATCH /realm/filters/{filter_id}. */
export const updateLinkifier = {
  "$id": "update-linkifier",
  "description": "PATCH /realm/filters/{filter_id}",
  "type": "object",
  "properties": {
    "pattern": { "type": "string" },
    "url_template": { "type": "string" }
  },
  "required": ["pattern", "url_template"]
} as const;
