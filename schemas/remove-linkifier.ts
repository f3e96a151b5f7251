/** Parameters of DELETE /realm/filters/{filter_id}. */
export const removeLinkifier = {
  "$id": "remove-linkifier",
  "description": "DELETE /realm/filters/{filter_id}",
  "type": "object",
  "properties": {}
} as const;
