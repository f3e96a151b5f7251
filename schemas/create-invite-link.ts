/** Parameters of POST /invites/multiuse. */
import { invitationFields } from './send-invites.js';

export const createInviteLink = {
  "$id": "create-invite-link",
  "description": "POST /invites/multiuse",
  "type": "object",
  "properties": {
    "stream_ids": { "type": "array", "items": { "type": "integer" }, "default": [] },
    ...invitationFields
  }
} as const;
