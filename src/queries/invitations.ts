/** Reading invitations: the list GET /invites shows, and what the join page needs to know of a link. */
import { formatInvite, invitationState, type InvitationRecord, type InvitationState } from '../domain/invitations.js';
import { isAdmin } from '../domain/roles.js';
import type { UserRecord } from '../domain/users.js';
import { unixSeconds, type Services } from '../services.js';
import { mayActAsMember, refusalError } from '../domain/permissions.js';

/**
 * GET /invites: the active, unexpired invitations the user can manage — an administrator's are
 * all of the organization's, anyone else's their own (Zulip's do_get_invites_controlled_by_user).
 */
export function listInvites(services: Services, actor: UserRecord): Record<string, unknown>[] {
  const refusal = mayActAsMember(actor);
  if (refusal) throw refusalError(refusal);
  const now = unixSeconds(services.clock);
  const mine = (record: InvitationRecord) => isAdmin(actor.role) || record.invitedBy === actor.id;
  const listed = [...services.invitations.all()].filter((record) => mine(record) && invitationState(record, now) === 'active');
  // Email invitations first, then links, each by id (Zulip's two queries).
  listed.sort((a, b) => Number(a.multiuse) - Number(b.multiuse) || a.id - b.id);
  return listed.map((record) => formatInvite(record, services.org.url));
}

export interface JoinLink {
  state: InvitationState | 'unknown';
  record: InvitationRecord | undefined;
  realmName: string;
  referrerName: string | undefined;
}

/** What a link's key leads to. */
export function joinLink(services: Services, key: string): JoinLink {
  const record = services.invitations.byLinkKey(key);
  const state = record ? invitationState(record, unixSeconds(services.clock)) : 'unknown';
  const referrer = record ? services.org.users.get(record.invitedBy) : undefined;
  return { state, record, realmName: services.org.realm.name, referrerName: referrer?.fullName };
}
