/** Parameters of GET /realm/profile_fields. */
export const getProfileFields = {
  "$id": "get-profile-fields",
  "description": "GET /realm/profile_fields",
  "type": "object",
  "properties": {}
} as const;
