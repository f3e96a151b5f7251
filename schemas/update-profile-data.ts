/** Parameters of PATCH /users/me/profile_data. */
export const updateProfileData = {
  "$id": "update-profile-data",
  "description": "PATCH /users/me/profile_data",
  "type": "object",
  "properties": {
    "data": {
      "type": "array",
      "items": {
        "type": "object",
        "properties": {
          "id": { "type": "integer" },
          "value": { "type": ["string", "array"], "items": { "type": "integer" } }
        },
        "required": ["id", "value"],
        "additionalProperties": false
      }
    }
  },
  "required": ["data"]
} as const;
