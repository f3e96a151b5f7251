/** Parameters of GET /calls/bigbluebutton/join (outside /api/v1): the signed meeting of the link `create` made. */
export const joinBigBlueButtonVideoCall = {
  "$id": "join-big-blue-button-video-call",
  "description": "GET /calls/bigbluebutton/join",
  "type": "object",
  "properties": {
    "bigbluebutton": { "type": "string" }
  },
  "required": ["bigbluebutton"]
} as const;
