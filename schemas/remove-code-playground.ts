/** Parameters of DELETE /realm/playgrounds/{playground_id}. */
export const removeCodePlayground = {
  "$id": "remove-code-playground",
  "description": "DELETE /realm/playgrounds/{playground_id}",
  "type": "object",
  "properties": {}
} as const;
