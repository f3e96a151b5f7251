/** Parameters of DELETE /events. */
export const deleteQueue = {
  "$id": "delete-queue",
  "description": "DELETE /events",
  "type": "object",
  "properties": { "queue_id": { "type": "string" } },
  "required": ["queue_id"]
} as const;
