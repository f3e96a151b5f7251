/** Parameters of PATCH /scheduled_messages/{scheduled_message_id}: those of POST, every one optional (a partial edit). */
import { scheduledMessageFields } from './create-scheduled-message.js';

export const updateScheduledMessage = {
  "$id": "update-scheduled-message",
  "description": "PATCH /scheduled_messages/{scheduled_message_id}",
  "type": "object",
  "properties": scheduledMessageFields
} as const;
