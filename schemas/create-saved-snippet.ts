/** Parameters of POST /saved_snippets (lengths are checked after stripping, in domain/saved-snippets.ts). */
export const createSavedSnippet = {
  "$id": "create-saved-snippet",
  "description": "POST /saved_snippets",
  "type": "object",
  "properties": {
    "title": { "type": "string" },
    "content": { "type": "string" }
  },
  "required": ["title", "content"]
} as const;
