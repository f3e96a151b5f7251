/** Parameters of POST /user_groups/{user_group_id}/subgroups. */
export const updateUserGroupSubgroups = {
  "$id": "update-user-group-subgroups",
  "description": "POST /user_groups/{user_group_id}/subgroups",
  "type": "object",
  "properties": {
    "add": { "type": "array", "items": { "type": "integer" } },
    "delete": { "type": "array", "items": { "type": "integer" } }
  }
} as const;
