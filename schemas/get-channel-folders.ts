/** Parameters of GET /channel_folders. */
export const getChannelFolders = {
  "$id": "get-channel-folders",
  "description": "GET /channel_folders",
  "type": "object",
  "properties": {
    "include_archived": { "type": "boolean", "default": false }
  }
} as const;
