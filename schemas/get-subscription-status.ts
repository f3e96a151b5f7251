/** Parameters of GET /users/{user_id}/subscriptions/{stream_id}: none besides the path. */
export const getSubscriptionStatus = {
  "$id": "get-subscription-status",
  "description": "GET /users/{user_id}/subscriptions/{stream_id}",
  "type": "object",
  "properties": {}
} as const;
