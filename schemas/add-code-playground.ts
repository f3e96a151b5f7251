/** Parameters of POST /realm/playgrounds. */
export const addCodePlayground = {
  "$id": "add-code-playground",
  "description": "POST /realm/playgrounds",
  "type": "object",
  "properties": {
    "name": { "type": "string" },
    "pygments_language": { "type": "string" },
    "url_template": { "type": "string" }
  },
  "required": ["name", "pygments_language", "url_template"]
} as const;
