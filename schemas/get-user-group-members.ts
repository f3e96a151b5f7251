/** Parameters of GET /user_groups/{user_group_id}/members and GET /user_groups/{user_group_id}/members/{user_id}. */
export const getUserGroupMembers = {
  "$id": "get-user-group-members",
  "description": "GET /user_groups/{user_group_id}/members and /members/{user_id}",
  "type": "object",
  "properties": {
    "direct_member_only": { "type": "boolean", "default": false }
  }
} as const;
