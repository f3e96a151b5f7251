/** Parameters of POST /external/slack_incoming (a JSON body, when sent as one, is read by the view). */
export const slackIncomingWebhook = {
  "$id": "slack-incoming-webhook",
  "description": "POST /external/slack_incoming",
  "type": "object",
  "properties": {
    "api_key": { "type": "string" },
    "stream": { "type": "string" },
    "topic": { "type": "string" },
    "payload": { "type": "string" },
    "only_events": { "type": "array", "items": { "type": "string" } },
    "exclude_events": { "type": "array", "items": { "type": "string" } }
  },
  "required": ["api_key"]
} as const;
