/** Parameters of PATCH /realm/profile_fields/{field_id}. */
export const updateProfileField = {
  "$id": "update-profile-field",
  "description": "PATCH /realm/profile_fields/{field_id}",
  "type": "object",
  "properties": {
    "name": { "type": "string" },
    "hint": { "type": "string" },
    "field_data": { "type": "object" },
    "display_in_profile_summary": { "type": "boolean" },
    "required": { "type": "boolean" },
    "editable_by_user": { "type": "boolean" }
  }
} as const;
