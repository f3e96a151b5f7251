/** Parameters of PATCH /channel_folders/{channel_folder_id}. */
export const updateChannelFolder = {
  "$id": "update-channel-folder",
  "description": "PATCH /channel_folders/{channel_folder_id}",
  "type": "object",
  "properties": {
    "name": { "type": "string", "maxLength": 60 },
    "description": { "type": "string", "maxLength": 1024 },
    "is_archived": { "type": "boolean" }
  }
} as const;
