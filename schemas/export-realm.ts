/** Parameters of POST /export/realm (feature level 416: `export_type` is 1, public, or 2, full with consent). */
export const exportRealm = {
  "$id": "export-realm",
  "description": "POST /export/realm",
  "type": "object",
  "properties": {
    "export_type": { "type": "integer", "default": 1 }
  }
} as const;
