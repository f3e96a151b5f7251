/** Parameters of POST /drafts: a JSON list of drafts, created together or not at all. */
import { draftObjectSchema } from './draft-fields.js';

export const createDrafts = {
  "$id": "create-drafts",
  "description": "POST /drafts",
  "type": "object",
  "properties": {
    "drafts": { "type": "array", "items": draftObjectSchema }
  },
  "required": ["drafts"]
} as const;
