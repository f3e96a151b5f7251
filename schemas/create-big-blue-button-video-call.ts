/** Parameters of GET /calls/bigbluebutton/create. */
export const createBigBlueButtonVideoCall = {
  "$id": "create-big-blue-button-video-call",
  "description": "GET /calls/bigbluebutton/create",
  "type": "object",
  "properties": {
    "meeting_name": { "type": "string" },
    "voice_only": { "type": "boolean", "default": false }
  },
  "required": ["meeting_name"]
} as const;
