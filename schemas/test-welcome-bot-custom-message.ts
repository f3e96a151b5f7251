/** Parameters of POST /realm/test_welcome_bot_custom_message. */
export const testWelcomeBotCustomMessage = {
  "$id": "test-welcome-bot-custom-message",
  "description": "POST /realm/test_welcome_bot_custom_message",
  "type": "object",
  "properties": {
    "welcome_message_custom_text": { "type": "string", "maxLength": 8000 }
  },
  "required": ["welcome_message_custom_text"]
} as const;
