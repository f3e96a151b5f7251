/** Parameters of DELETE /users/me/profile_data. */
export const deleteProfileData = {
  "$id": "delete-profile-data",
  "description": "DELETE /users/me/profile_data",
  "type": "object",
  "properties": {
    "data": { "type": "array", "items": { "type": "integer" } }
  },
  "required": ["data"]
} as const;
