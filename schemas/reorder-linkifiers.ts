/** Parameters of PATCH /realm/linkifiers. */
export const reorderLinkifiers = {
  "$id": "reorder-linkifiers",
  "description": "PATCH /realm/linkifiers",
  "type": "object",
  "properties": {
    "ordered_linkifier_ids": { "type": "array", "items": { "type": "integer" } }
  },
  "required": ["ordered_linkifier_ids"]
} as const;
