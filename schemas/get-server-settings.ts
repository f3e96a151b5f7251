/** Parameters of GET /server_settings. */
export const getServerSettings = {
  "$id": "get-server-settings",
  "description": "GET /server_settings",
  "type": "object",
  "properties": {}
} as const;
