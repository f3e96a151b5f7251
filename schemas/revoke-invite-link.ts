/** Parameters of DELETE /invites/multiuse/{invite_id}. */
export const revokeInviteLink = { "$id": "revoke-invite-link", "description": "DELETE /invites/multiuse/{invite_id}", "type": "object", "properties": {} } as const;
