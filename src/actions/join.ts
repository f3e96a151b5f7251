/**
 * Joining by invitation (the form behind `/join/{key}`): one write creates the account with the
 * invitation's role, channels and groups, announces it, has the welcome bot greet the newcomer
 * (Zulip's welcome text, then the invitation's or the organization's custom text), tells the
 * inviter if they asked, and uses up an email invitation (Zulip's process_new_human_user).
 */
import type { ChannelRecord } from '../domain/channel-record.js';
import { hashPassword } from '../domain/credentials.js';
import { ApiError } from '../domain/errors.js';
import { invitationState, joinFormProblem, type InvitationRecord, type InvitationState } from '../domain/invitations.js';
import { isAdmin, Role } from '../domain/roles.js';
import type { UserRecord } from '../domain/users.js';
import { LIMITS } from '../domain/versions.js';
import { unixSeconds, type Services } from '../services.js';
import type { Transaction } from '../store/transaction.js';
import { createAccount } from './accounts.js';
import { notifyInvitesChanged } from './invitations.js';
import { notificationBot, notifyDirect, silentMention } from './notifications.js';
import { subscribeUsers } from './subscriptions.js';
import { addGroupMembers } from './user-groups.js';
import { announceNewUser, everyone } from './users.js';

export interface JoinForm {
  fullName: string;
  password: string;
  /** Asked only by reusable links (an email invitation knows its address). */
  email?: string;
}

export type JoinOutcome = { joined: UserRecord } | { formProblem: string };

/** Why a link no longer opens: HTTP 404 for a key nobody issued, 410 for one that is gone. */
export function deadLinkError(state: Exclude<InvitationState, 'active'> | 'unknown'): ApiError {
  switch (state) {
    case 'unknown':
      return new ApiError('NOT_FOUND', 'This invitation link is not valid. Check that you copied the whole link.', 404);
    case 'expired':
      return new ApiError('BAD_REQUEST', 'This invitation has expired. Ask the person who invited you for a new one.', 410);
    case 'revoked':
      return new ApiError('BAD_REQUEST', 'This invitation has been revoked. Ask the person who invited you for a new one.', 410);
    case 'used':
      return new ApiError('BAD_REQUEST', 'This invitation has already been used to create an account. Log in instead.', 410);
  }
}

/** The invitation behind `key`, if it still opens; throws the dead-link error otherwise. */
function liveInvitation(services: Services, key: string): InvitationRecord {
  const record = services.invitations.byLinkKey(key);
  const state = record ? invitationState(record, unixSeconds(services.clock)) : 'unknown';
  if (state !== 'active') throw deadLinkError(state);
  return record!;
}

/** POST /join/{key} */
export async function joinWithInvitation(services: Services, key: string, form: JoinForm): Promise<JoinOutcome> {
  const { org } = services;
  const before = liveInvitation(services, key);
  const problem = joinFormProblem({ ...form, email: before.multiuse ? (form.email ?? '') : undefined }, LIMITS.maxFullNameLength);
  if (problem) return { formProblem: problem };
  const email = before.email ?? form.email!.trim();
  if (org.users.byEmail(email)) return { formProblem: 'An account with this email address already exists. Log in instead.' };
  // Hashing is slow and asynchronous: before the write, which checks everything again.
  const passwordHash = await hashPassword(form.password);
  return services.write((tx) => {
    const record = liveInvitation(services, key);
    if (org.users.byEmail(email)) return { formProblem: 'An account with this email address already exists. Log in instead.' };
    const nowMs = services.clock.now();
    const user = createAccount(org, services.counters, tx, { email, fullName: form.fullName.trim(), role: record.invitedAs, passwordHash, nowMs });
    announceNewUser(services, tx, user);
    subscribeUsers(services, tx, [user], channelsOf(services, record));
    joinGroups(services, tx, user.id, record.groupIds);
    welcome(services, tx, user, record);
    const referrer = org.users.get(record.invitedBy);
    if (record.notifyReferrerOnJoin && referrer?.isActive) {
      notifyDirect(services, tx, referrer, `${silentMention(user)} accepted your invitation to join Zulip!`);
    }
    useUp(services, tx, record, user);
    return { joined: user };
  });
}

/** The invitation's channels that still exist, plus the default channels if it says so. */
function channelsOf(services: Services, record: InvitationRecord): ChannelRecord[] {
  const channels: ChannelRecord[] = [];
  for (const id of record.streamIds) {
    const channel = services.org.channels.get(id);
    if (channel && !channel.isArchived) channels.push(channel);
  }
  if (record.includeRealmDefaultSubscriptions) {
    for (const channel of services.org.channels.all()) if (channel.isDefault && !channel.isArchived && !channels.includes(channel)) channels.push(channel);
  }
  return channels;
}

/**
 * Adds a new user to the invitation's groups, with Zulip's `user_group` `add_members` event.
 * The one place invitations change group membership; the group's own rules are in user-groups.ts.
 */
export function joinGroups(services: Services, tx: Transaction, userId: number, groupIds: readonly number[]): void {
  for (const id of groupIds) {
    const group = services.org.groups.get(id);
    // A group deleted or turned into something else since the invitation was made is skipped;
    // a deactivated one still takes members (its membership stays editable, as Zulip's does).
    if (!group || group.isSystemGroup) continue;
    addGroupMembers(services, tx, id, [userId]);
  }
}

/** Zulip's help center: Parley serves no /help pages of its own, so the links go to Zulip's. */
const ZULIP_HELP = 'https://zulip.com/help';
/** Zulip's NAVIGATION_TOUR_VIDEO_URL. */
const TOUR_VIDEO_URL = 'https://static.zulipchat.com/static/navigation-tour-video/zulip-10.mp4';

/** Zulip's initial Welcome Bot message (send_initial_direct_message), for an organization that is not a school. */
export function welcomeText(user: Pick<UserRecord, 'role'>): string {
  const setup = isAdmin(user.role) ? ` We also have a guide for [moving your organization to Zulip](${ZULIP_HELP}/moving-to-zulip).` : '';
  return [
    'Hello, and welcome to Zulip!👋',
    `To learn more, check out our [getting started guide](${ZULIP_HELP}/getting-started-with-zulip)!${setup}`,
    `You can always come back to the [Welcome to Zulip video](${TOUR_VIDEO_URL}) for a quick app overview.`,
  ].join('\n\n');
}

/** The welcome bot's greeting, then the custom text (the invitation's; null: the organization's; empty: none). */
function welcome(services: Services, tx: Transaction, user: UserRecord, record: InvitationRecord): void {
  const bot = welcomeBot(services, tx);
  notifyDirect(services, tx, user, welcomeText(user), bot);
  const custom = record.welcomeMessageCustomText ?? ((services.org.realm.settings.welcome_message_custom_text as string | undefined) ?? '');
  if (custom.trim() !== '') notifyDirect(services, tx, user, custom, bot);
}

/** Zulip's Welcome Bot, a system bot like the notification bot; made the first time someone joins. */
export function welcomeBot(services: Services, tx: Transaction): UserRecord {
  const { org } = services;
  const domain = notificationBot(services).deliveryEmail.split('@')[1];
  const email = `welcome-bot@${domain}`;
  const existing = org.users.byEmail(email);
  if (existing?.isSystemBot) return existing;
  return createAccount(org, services.counters, tx, {
    email, fullName: 'Welcome Bot', role: Role.MEMBER, passwordHash: null, isBot: true, botType: 1, isSystemBot: true, nowMs: services.clock.now(),
  });
}

/**
 * An email invitation is used up; a link stays for the next joiner. Other pending invitations to
 * the same address are revoked (Zulip's revoke_preregistration_users).
 */
function useUp(services: Services, tx: Transaction, record: InvitationRecord, user: UserRecord): void {
  const joinedUserIds = [...record.joinedUserIds, user.id];
  services.invitations.save({ ...record, joinedUserIds, status: record.multiuse ? record.status : 'used' }, tx);
  const address = user.deliveryEmail.toLowerCase();
  for (const other of [...services.invitations.all()]) {
    // The invitation just used is no longer active.
    if (other.multiuse || other.status !== 'active' || other.email?.toLowerCase() !== address) continue;
    services.invitations.save({ ...other, status: 'revoked' }, tx);
  }
  notifyInvitesChanged(services, tx, record.invitedBy);
}
