/** Parameters of PATCH /channel_folders (reordering). */
export const reorderChannelFolders = {
  "$id": "reorder-channel-folders",
  "description": "PATCH /channel_folders",
  "type": "object",
  "properties": {
    "order": { "type": "array", "items": { "type": "integer" } }
  },
  "required": ["order"]
} as const;
