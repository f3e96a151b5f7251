/**
 * Invitations (Zulip's PreregistrationUser and MultiuseInvite with their Confirmation): the
 * record, its life (active, used, revoked, expired), and the pure rules of POST /invites —
 * parsing the address list, who may invite as which role, and sorting the addresses into those
 * invited, those skipped and those refused, with Zulip's messages.
 */
import { randomBytes } from 'node:crypto';
import { MIN_PASSWORD_LENGTH } from './credentials.js';
import { isValidEmail } from './users.js';
import { isAdmin, isOwner, Role } from './roles.js';

export interface InvitationRecord {
  id: number;
  /** A reusable link (Zulip's MultiuseInvite); ids are unique per kind, as Zulip's two tables. */
  multiuse: boolean;
  /** The secret in the link (`/join/{key}/`). */
  key: string;
  /** The address invited; null for a reusable link. */
  email: string | null;
  invitedBy: number;
  invitedAs: Role;
  /** Unix seconds. */
  invitedAt: number;
  /** Unix seconds; null: never expires. */
  expiresAt: number | null;
  streamIds: number[];
  groupIds: number[];
  includeRealmDefaultSubscriptions: boolean;
  notifyReferrerOnJoin: boolean;
  /** Null: the organization's default text; empty: no custom welcome message. */
  welcomeMessageCustomText: string | null;
  status: 'active' | 'used' | 'revoked';
  /** Unix seconds of every mail sent for it (the first and each resend), for the daily limit. */
  sentAt: number[];
  /** Accounts created with it (one for an email invitation, any number for a link). */
  joinedUserIds: number[];
}

export type InvitationKind = 'email' | 'multiuse';
export const kindOf = (record: InvitationRecord): InvitationKind => (record.multiuse ? 'multiuse' : 'email');

/** Whether the link still opens the join form, and if not, why. */
export type InvitationState = 'active' | 'expired' | 'used' | 'revoked';

export function invitationState(record: InvitationRecord, nowSeconds: number): InvitationState {
  if (record.status !== 'active') return record.status;
  if (record.expiresAt !== null && nowSeconds >= record.expiresAt) return 'expired';
  return 'active';
}

export const MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH = 8000;
/** Zulip's INVITATION_LINK_VALIDITY_DAYS (10) in minutes. */
export const DEFAULT_INVITATION_VALIDITY_MINUTES = 14400;

/** Expiry time in Unix seconds for a validity in minutes (null: never). */
export function expiryFor(nowSeconds: number, minutes: number | null): number | null {
  return minutes === null ? null : nowSeconds + minutes * 60;
}

/** 24 lowercase base32 characters (120 random bits), as Zulip's confirmation keys. */
export function generateInvitationKey(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  const bytes = randomBytes(24);
  let key = '';
  for (const byte of bytes) key += alphabet[byte & 31];
  return key;
}

/**
 * Zulip's get_invitee_emails_set: split on commas and newlines, take the address out of
 * `Name <address>`, trim; duplicates once, blanks dropped, first appearance first.
 */
export function parseInviteeEmails(raw: string): string[] {
  const seen = new Set<string>();
  for (let part of raw.split(/[,\n]/)) {
    const named = /<(.*)>/.exec(part);
    if (named) part = named[1]!;
    const email = part.trim();
    if (email !== '') seen.add(email);
  }
  return [...seen];
}

/**
 * May a user of `inviter` role invite as `invitedAs`? Only to a role with equal or stricter
 * restrictions than their own (the spec and Zulip's API documentation: a moderator may invite
 * moderators, which Zulip's code leaves to administrators). Only owners invite owners.
 */
export function inviteRoleRefusal(inviter: Role, invitedAs: Role): string | null {
  if (invitedAs === Role.OWNER && !isOwner(inviter)) return 'Must be an organization owner';
  // Role numbers grow with restrictions: 100 owner … 600 guest.
  if (invitedAs < inviter) return 'Must be an organization administrator';
  return null;
}

/**
 * May `actor` manage (resend, revoke) an invitation? Its creator always; anyone else must be an
 * administrator, and an owner for invitations to the owner role.
 */
export function manageRefusal(actor: { id: number; role: Role }, record: InvitationRecord): string | null {
  if (record.invitedBy === actor.id) return null;
  if (record.invitedAs === Role.OWNER && !isOwner(actor.role)) return 'Must be an organization owner';
  if (!isAdmin(actor.role)) return 'Must be an organization administrator';
  return null;
}

/** One skipped or refused address: the address, why, and whether it belongs to a deactivated account. */
export type InviteeError = [email: string, message: string, deactivated: boolean];

export interface InviteeFacts {
  /** The account holding the address, if any (compared case-insensitively). */
  account(email: string): { isActive: boolean; isSystemBot: boolean } | undefined;
  /** Whether an active, unexpired email invitation to the address exists. */
  pendingInvitation(email: string): boolean;
}

export type InviteeSorting =
  /** Some addresses are invalid: nothing is sent. */
  | { outcome: 'invalid'; errors: InviteeError[] }
  /** Every address is skipped: nothing is sent. */
  | { outcome: 'none'; errors: InviteeError[] }
  /** `invite` get invitations; `skipped` (maybe empty) are told in INVITATION_FAILED. */
  | { outcome: 'send'; invite: string[]; skipped: InviteeError[] };

/** Zulip's do_invite_users checks, in its order: invalid addresses, then existing accounts (and pending invitations). */
export function sortInvitees(emails: readonly string[], facts: InviteeFacts): InviteeSorting {
  const invalid: InviteeError[] = [];
  const good: string[] = [];
  for (const email of emails) {
    if (isValidEmail(email)) good.push(email);
    else invalid.push([email, 'Invalid address.', false]);
  }
  const skipped: InviteeError[] = [];
  const invite: string[] = [];
  for (const email of good) {
    const account = facts.account(email);
    if (account?.isSystemBot) skipped.push([email, 'Reserved for system bots.', false]);
    else if (account?.isActive) skipped.push([email, 'Already has an account.', false]);
    else if (account) skipped.push([email, 'Account has been deactivated.', true]);
    else if (facts.pendingInvitation(email)) skipped.push([email, 'Already invited.', false]);
    else invite.push(email);
  }
  if (invalid.length > 0) return { outcome: 'invalid', errors: [...invalid, ...skipped] };
  if (invite.length === 0) return { outcome: 'none', errors: skipped };
  return { outcome: 'send', invite, skipped };
}

/** Would `count` more mails exceed the organization's daily limit (0: no limit), given the mails of the last day? */
export function overDailyLimit(sentToday: number, count: number, dailyMax: number): boolean {
  return dailyMax > 0 && sentToday + count > dailyMax;
}

/** The join form's input, checked: a name (trimmed) and a password; `email` only for links. */
export function joinFormProblem(form: { fullName: string; password: string; email?: string }, maxNameLength: number): string | null {
  if (form.email !== undefined && !isValidEmail(form.email.trim())) return 'Please enter a valid email address.';
  const name = form.fullName.trim();
  if (name.length === 0) return 'Please enter your name.';
  if (name.length > maxNameLength) return `Your name must be at most ${maxNameLength} characters long.`;
  if (form.password.length < MIN_PASSWORD_LENGTH) return `Your password must be at least ${MIN_PASSWORD_LENGTH} characters long.`;
  return null;
}

/** The invitation as GET /invites lists it. */
export function formatInvite(record: InvitationRecord, realmUrl: string): Record<string, unknown> {
  const common = {
    id: record.id,
    invited_by_user_id: record.invitedBy,
    invited: record.invitedAt,
    expiry_date: record.expiresAt,
    invited_as: record.invitedAs,
    is_multiuse: record.multiuse,
    notify_referrer_on_join: record.notifyReferrerOnJoin,
  };
  return record.multiuse ? { ...common, link_url: joinUrl(realmUrl, record.key) } : { ...common, email: record.email };
}

/** The link an invitation's mail carries, as Zulip's confirmation URLs (trailing slash included). */
export function joinUrl(realmUrl: string, key: string): string {
  return `${realmUrl}/join/${key}/`;
}

/** What the group rule reads of a user group. */
export interface InviteGroupFacts {
  exists: boolean;
  isSystemGroup: boolean;
  /** The actor may add members (organization's can_manage_all_groups, or the group's can_manage_group / can_add_members_group). */
  mayAddMembers: boolean;
}

/** Zulip's access_user_group_for_update with `can_add_members_group`, for one group of an invitation. */
export function inviteGroupRefusal(group: InviteGroupFacts): string | null {
  if (!group.exists) return 'Invalid user group';
  if (group.isSystemGroup) return 'Insufficient permission';
  if (!group.mayAddMembers) return 'Insufficient permission';
  return null;
}
