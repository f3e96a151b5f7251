/** Parameters of PATCH /drafts/{draft_id}: the replacement draft. */
import { draftObjectSchema } from './draft-fields.js';

export const editDraft = {
  "$id": "edit-draft",
  "description": "PATCH /drafts/{draft_id}",
  "type": "object",
  "properties": {
    "draft": draftObjectSchema
  },
  "required": ["draft"]
} as const;
