/** Parameters of DELETE /drafts/{draft_id}. */
export const deleteDraft = { "$id": "delete-draft", "description": "DELETE /drafts/{draft_id}", "type": "object", "properties": {} } as const;
