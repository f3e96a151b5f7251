/** Parameters of PATCH /realm/profile_fields (reordering). */
export const reorderProfileFields = {
  "$id": "reorder-profile-fields",
  "description": "PATCH /realm/profile_fields",
  "type": "object",
  "properties": {
    "order": { "type": "array", "items": { "type": "integer" } }
  },
  "required": ["order"]
} as const;
