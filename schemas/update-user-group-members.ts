/** Parameters of POST /user_groups/{user_group_id}/members. */
export const updateUserGroupMembers = {
  "$id": "update-user-group-members",
  "description": "POST /user_groups/{user_group_id}/members",
  "type": "object",
  "properties": {
    "add": { "type": "array", "items": { "type": "integer" } },
    "delete": { "type": "array", "items": { "type": "integer" } },
    "add_subgroups": { "type": "array", "items": { "type": "integer" } },
    "delete_subgroups": { "type": "array", "items": { "type": "integer" } }
  }
} as const;
