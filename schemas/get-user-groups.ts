/** Parameters of GET /user_groups. */
export const getUserGroups = {
  "$id": "get-user-groups",
  "description": "GET /user_groups",
  "type": "object",
  "properties": {
    "include_deactivated_groups": { "type": "boolean", "default": false }
  }
} as const;
