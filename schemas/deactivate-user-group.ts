/** Parameters of POST /user_groups/{user_group_id}/deactivate (none). */
export const deactivateUserGroup = {
  "$id": "deactivate-user-group",
  "description": "POST /user_groups/{user_group_id}/deactivate",
  "type": "object",
  "properties": {}
} as const;
