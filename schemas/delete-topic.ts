/** Parameters of POST /streams/{stream_id}/delete_topic. */
export const deleteTopic = {
  "$id": "delete-topic",
  "description": "POST /streams/{stream_id}/delete_topic",
  "type": "object",
  "properties": {
    "topic_name": { "type": "string" }
  },
  "required": ["topic_name"]
} as const;
