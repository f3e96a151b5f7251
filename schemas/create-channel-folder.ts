/** Parameters of POST /channel_folders/create. */
export const createChannelFolder = {
  "$id": "create-channel-folder",
  "description": "POST /channel_folders/create",
  "type": "object",
  "properties": {
    "name": { "type": "string", "maxLength": 60 },
    "description": { "type": "string", "maxLength": 1024, "default": "" }
  },
  "required": ["name"]
} as const;
