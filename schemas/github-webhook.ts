/** Parameters of POST /external/github (the event is the X-GitHub-Event header, the payload the JSON body). */
export const githubWebhook = {
  "$id": "github-webhook",
  "description": "POST /external/github",
  "type": "object",
  "properties": {
    "api_key": { "type": "string" },
    "stream": { "type": "string" },
    "topic": { "type": "string" },
    "branches": { "type": "string" },
    "ignore_private_repositories": { "type": "boolean", "default": false },
    "only_events": { "type": "array", "items": { "type": "string" } },
    "exclude_events": { "type": "array", "items": { "type": "string" } }
  },
  "required": ["api_key"]
} as const;
