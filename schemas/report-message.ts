/** Parameters of POST /messages/{message_id}/report. */
export const reportMessage = {
  "$id": "report-message",
  "description": "POST /messages/{message_id}/report",
  "type": "object",
  "properties": {
    "report_type": { "type": "string" },
    "description": { "type": "string", "maxLength": 1000 }
  },
  "required": ["report_type"]
} as const;
