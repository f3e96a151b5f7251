/** Parameters of PATCH /saved_snippets/{saved_snippet_id}. */
export const editSavedSnippet = {
  "$id": "edit-saved-snippet",
  "description": "PATCH /saved_snippets/{saved_snippet_id}",
  "type": "object",
  "properties": {
    "title": { "type": "string" },
    "content": { "type": "string" }
  }
} as const;
