/** Parameters of DELETE /users/{user_id}. */
export const deactivateUser = {
  "$id": "deactivate-user",
  "description": "DELETE /users/{user_id}",
  "type": "object",
  "properties": {
    "deactivation_notification_comment": { "type": "string", "maxLength": 2000 }
  }
} as const;
