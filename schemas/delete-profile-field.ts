/** Parameters of DELETE /realm/profile_fields/{field_id}. */
export const deleteProfileField = {
  "$id": "delete-profile-field",
  "description": "DELETE /realm/profile_fields/{field_id}",
  "type": "object",
  "properties": {}
} as const;
