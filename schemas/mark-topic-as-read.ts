/** Parameters of POST /mark_topic_as_read. */
export const markTopicAsRead = {
  "$id": "mark-topic-as-read",
  "description": "POST /mark_topic_as_read",
  "type": "object",
  "properties": { "stream_id": { "type": "integer" }, "topic_name": { "type": "string" } },
  "required": ["stream_id", "topic_name"]
} as const;
