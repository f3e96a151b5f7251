/** Parameters of DELETE /invites/{invite_id}. */
export const revokeInvite = { "$id": "revoke-invite", "description": "DELETE /invites/{invite_id}", "type": "object", "properties": {} } as const;
