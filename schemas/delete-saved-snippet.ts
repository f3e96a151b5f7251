/** Parameters of DELETE /saved_snippets/{saved_snippet_id}. */
export const deleteSavedSnippet = { "$id": "delete-saved-snippet", "description": "DELETE /saved_snippets/{saved_snippet_id}", "type": "object", "properties": {} } as const;
