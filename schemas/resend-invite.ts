/** Parameters of POST /invites/{invite_id}/resend. */
export const resendInvite = { "$id": "resend-invite", "description": "POST /invites/{invite_id}/resend", "type": "object", "properties": {} } as const;
