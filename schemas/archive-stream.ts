/** Parameters of DELETE /streams/{stream_id} (archiving): none besides the path. */
export const archiveStream = {
  "$id": "archive-stream",
  "description": "DELETE /streams/{stream_id}",
  "type": "object",
  "properties": {}
} as const;
