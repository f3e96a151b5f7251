/** Parameters of GET /saved_snippets. */
export const getSavedSnippets = { "$id": "get-saved-snippets", "description": "GET /saved_snippets", "type": "object", "properties": {} } as const;
