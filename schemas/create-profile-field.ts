/** Parameters of POST /realm/profile_fields. */
export const createProfileField = {
  "$id": "create-profile-field",
  "description": "POST /realm/profile_fields",
  "type": "object",
  "properties": {
    "name": { "type": "string", "default": "" },
    "hint": { "type": "string", "default": "" },
    "field_type": { "type": "integer" },
    "field_data": { "type": "object", "default": {} },
    "display_in_profile_summary": { "type": "boolean", "default": false },
    "required": { "type": "boolean", "default": false },
    "editable_by_user": { "type": "boolean", "default": true }
  },
  "required": ["field_type"]
} as const;
