/** Parameters of PATCH /users/{user_id} and PATCH /users/{email}. */
export const updateUser = {
  "$id": "update-user",
  "description": "PATCH /users/{user_id} and PATCH /users/{email}",
  "type": "object",
  "properties": {
    "full_name": { "type": "string" },
    "role": { "type": "integer" },
    "profile_data": {
      "type": "array",
      "items": {
        "type": "object",
        "properties": {
          "id": { "type": "integer" },
          "value": { "type": ["string", "array", "null"], "items": { "type": "integer" } }
        },
        "required": ["id", "value"],
        "additionalProperties": false
      }
    },
    "new_email": { "type": "string" }
  }
} as const;
