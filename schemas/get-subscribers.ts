/** Parameters of GET /streams/{stream_id}/members and GET /users/{user_id}/subscriptions/{stream_id}: none besides the path. */
export const getSubscribers = {
  "$id": "get-subscribers",
  "description": "GET /streams/{stream_id}/members",
  "type": "object",
  "properties": {}
} as const;
