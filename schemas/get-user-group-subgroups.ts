/** Parameters of GET /user_groups/{user_group_id}/subgroups. */
export const getUserGroupSubgroups = {
  "$id": "get-user-group-subgroups",
  "description": "GET /user_groups/{user_group_id}/subgroups",
  "type": "object",
  "properties": {
    "direct_subgroup_only": { "type": "boolean", "default": false }
  }
} as const;
