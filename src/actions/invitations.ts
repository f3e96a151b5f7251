/**
 * Invitations (Zulip's zerver/actions/invites.py): sending email invitations, creating reusable
 * links, resending and revoking, each in one write with its `invites_changed` event and its mail.
 * The checks run in Zulip's order (views/invite.py): guests, who may invite, the role, the
 * addresses, the channels, the groups, the welcome text, the daily limit, then each address.
 */
import { canAccessContent, type ChannelRecord } from '../domain/channel-record.js';
import { ApiError, badRequest } from '../domain/errors.js';
import { settingIncludes } from '../domain/groups.js';
import { invitationMail } from '../domain/invitation-mail.js';
import {
  expiryFor,
  generateInvitationKey,
  inviteGroupRefusal,
  inviteRoleRefusal,
  invitationState,
  joinUrl,
  manageRefusal,
  overDailyLimit,
  parseInviteeEmails,
  sortInvitees,
  type InvitationKind,
  type InvitationRecord,
  type InviteeError,
} from '../domain/invitations.js';
import { inRealmGroupSetting, mayActAsMember, maySubscribeOthers, refusalError } from '../domain/permissions.js';
import { isAdmin, type Role } from '../domain/roles.js';
import type { UserRecord } from '../domain/users.js';
import { unixSeconds, type Services } from '../services.js';
import type { Transaction } from '../store/transaction.js';
import { invitationId } from '../store/invitations.js';
import { sendMail } from './mail.js';

/** What POST /invites and POST /invites/multiuse ask for, as the API names it (checked by the schema). */
export interface InvitationRequest {
  invite_expires_in_minutes?: number | null;
  invite_as: number;
  stream_ids: readonly number[];
  group_ids?: readonly number[];
  include_realm_default_subscriptions: boolean;
  welcome_message_custom_text?: string;
}

const DAY_SECONDS = 24 * 60 * 60;

/** `INVITATION_FAILED`, with Zulip's fields. */
function invitationFailed(msg: string, errors: InviteeError[], flags: { sent: boolean; dailyLimit?: boolean }): ApiError {
  return new ApiError('INVITATION_FAILED', msg, 400, {
    errors,
    sent_invitations: flags.sent,
    license_limit_reached: false,
    daily_limit_reached: flags.dailyLimit ?? false,
  });
}

const DAILY_LIMIT_MESSAGE =
  'To protect users, Zulip limits the number of invitations you can send in one day. Because you have reached the limit, no invitations were sent.';

/** Only owners invite owners; administrators and moderators are invited by administrators. */
function checkRole(actor: UserRecord, inviteAs: number): Role {
  const refusal = inviteRoleRefusal(actor.role, inviteAs as Role);
  if (refusal) throw badRequest(refusal);
  return inviteAs as Role;
}

/** Zulip's access_streams_for_invite: channels the inviter may read, each a default channel or one they may subscribe others to. */
function channelsForInvite(services: Services, actor: UserRecord, streamIds: readonly number[]): ChannelRecord[] {
  const { org, subscriptions } = services;
  const channels: ChannelRecord[] = [];
  for (const id of streamIds) {
    const channel = org.channels.get(id);
    if (!channel || channel.isArchived || !canAccessContent(actor, channel, subscriptions.isSubscribed(actor.id, id))) {
      throw badRequest(`Invalid channel ID ${id}. No invites were sent.`);
    }
    if (!channels.includes(channel)) channels.push(channel);
  }
  const mayAddTo = (channel: ChannelRecord) =>
    channel.isDefault ||
    maySubscribeOthers(actor, org.realm, org.groups) ||
    [channel.settings.can_add_subscribers_group, channel.settings.can_administer_channel_group].some((value) => value !== undefined && settingIncludes(actor.id, value, org.groups));
  if (!channels.every(mayAddTo)) throw badRequest('You do not have permission to subscribe other users to channels.');
  return channels;
}

/** Zulip's access_user_groups_for_invite: existing, non-system groups the inviter may add members to. */
function groupsForInvite(services: Services, actor: UserRecord, groupIds: readonly number[]): number[] {
  const { org } = services;
  const ids: number[] = [];
  for (const id of groupIds) {
    const group = org.groups.get(id);
    const mayAddMembers =
      group !== undefined &&
      (inRealmGroupSetting(actor, org.realm, 'can_manage_all_groups', org.groups) ||
        [group.settings.can_manage_group, group.settings.can_add_members_group].some((value) => value !== undefined && settingIncludes(actor.id, value, org.groups)));
    const refusal = inviteGroupRefusal({ exists: group !== undefined && !group.deactivated, isSystemGroup: group?.isSystemGroup ?? false, mayAddMembers });
    if (refusal) throw badRequest(refusal);
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** Guests never invite (Zulip's require_member_or_admin); others need the organization's group setting. */
function checkMayInvite(services: Services, actor: UserRecord, setting: 'can_invite_users_group' | 'create_multiuse_invite_group'): void {
  const refusal = mayActAsMember(actor);
  if (refusal) throw refusalError(refusal);
  if (!inRealmGroupSetting(actor, services.org.realm, setting, services.org.groups)) throw badRequest('Insufficient permission');
}

function checkWelcomeText(actor: UserRecord, text: string | undefined): string | null {
  if (text === undefined) return null;
  if (!isAdmin(actor.role)) throw badRequest('Must be an organization administrator');
  return text;
}

/** Mails sent in the organization in the last day (every send and resend of an email invitation). */
function mailsSentToday(services: Services, now: number): number {
  let count = 0;
  for (const record of services.invitations.all()) for (const at of record.sentAt) if (at > now - DAY_SECONDS) count++;
  return count;
}

function checkDailyLimit(services: Services, now: number, count: number): void {
  if (overDailyLimit(mailsSentToday(services, now), count, services.config.invitesDailyMax)) {
    throw invitationFailed(DAILY_LIMIT_MESSAGE, [], { sent: false, dailyLimit: true });
  }
}

/** `invites_changed` to the administrators and the invitation's creator (Zulip's notify_invites_changed). */
export function notifyInvitesChanged(services: Services, tx: Transaction, referrerId: number): void {
  const ids: number[] = [];
  for (const user of services.org.users.all()) {
    if (user.isActive && !user.isSystemBot && (isAdmin(user.role) || user.id === referrerId)) ids.push(user.id);
  }
  tx.emit({ type: 'invites_changed' }, ids);
}

/** Queues the invitation's mail (SMTP after the write, or the outbox within it) and records the send. */
function mailInvitation(services: Services, tx: Transaction, record: InvitationRecord, now: number): InvitationRecord {
  const { org, config } = services;
  const referrer = org.users.get(record.invitedBy)!;
  const mail = invitationMail({
    to: record.email!,
    from: config.mailFrom,
    referrerName: referrer.fullName,
    referrerEmail: referrer.deliveryEmail,
    realmName: org.realm.name,
    realmUrl: org.url,
    joinUrl: joinUrl(org.url, record.key),
    expiresAt: record.expiresAt,
  });
  sendMail(services, tx, mail, `invitation ${record.id}`);
  return { ...record, sentAt: [...record.sentAt.filter((at) => at > now - DAY_SECONDS), now] };
}

function newRecord(services: Services, tx: Transaction, actor: UserRecord, kind: InvitationKind, fields: Partial<InvitationRecord> & Pick<InvitationRecord, 'invitedAs' | 'expiresAt' | 'streamIds' | 'groupIds' | 'includeRealmDefaultSubscriptions' | 'notifyReferrerOnJoin' | 'welcomeMessageCustomText'>): InvitationRecord {
  const now = unixSeconds(services.clock);
  return {
    id: services.counters.nextRealmId(services.org.id, kind === 'email' ? 'invite' : 'multiuse_invite', tx),
    multiuse: kind === 'multiuse',
    key: generateInvitationKey(),
    email: null,
    invitedBy: actor.id,
    invitedAt: now,
    status: 'active',
    sentAt: [],
    joinedUserIds: [],
    ...fields,
  };
}

function expiryOf(services: Services, minutes: number | null | undefined): number | null {
  return expiryFor(unixSeconds(services.clock), minutes === undefined ? services.config.invitationValidityMinutes : minutes);
}

/** POST /invites */
export async function inviteUsers(services: Services, actor: UserRecord, request: InvitationRequest & { invitee_emails: string; notify_referrer_on_join: boolean }): Promise<void> {
  const { org } = services;
  const skipped = await services.write((tx) => {
    checkMayInvite(services, actor, 'can_invite_users_group');
    const role = checkRole(actor, request.invite_as);
    const emails = parseInviteeEmails(request.invitee_emails);
    if (emails.length === 0) throw badRequest('You must specify at least one email address.');
    const channels = channelsForInvite(services, actor, request.stream_ids);
    const groupIds = groupsForInvite(services, actor, request.group_ids ?? []);
    const welcome = checkWelcomeText(actor, request.welcome_message_custom_text);
    const now = unixSeconds(services.clock);
    checkDailyLimit(services, now, emails.length);
    const pending = pendingAddresses(services, now);
    const sorting = sortInvitees(emails, {
      account: (email) => org.users.byEmail(email),
      pendingInvitation: (email) => pending.has(email.toLowerCase()),
    });
    if (sorting.outcome === 'invalid') throw invitationFailed("Some emails did not validate, so we didn't send any invitations.", sorting.errors, { sent: false });
    if (sorting.outcome === 'none') throw invitationFailed("We weren't able to invite anyone.", sorting.errors, { sent: false });
    for (const email of sorting.invite) {
      const record = newRecord(services, tx, actor, 'email', {
        email,
        invitedAs: role,
        expiresAt: expiryOf(services, request.invite_expires_in_minutes),
        streamIds: channels.map((channel) => channel.id),
        groupIds,
        includeRealmDefaultSubscriptions: request.include_realm_default_subscriptions,
        notifyReferrerOnJoin: request.notify_referrer_on_join,
        welcomeMessageCustomText: welcome,
      });
      services.invitations.save(mailInvitation(services, tx, record, now), tx);
    }
    notifyInvitesChanged(services, tx, actor.id);
    return sorting.skipped;
  });
  // Zulip answers an error after sending the others, so that the client can show who was skipped.
  if (skipped.length > 0) {
    throw invitationFailed(
      "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
      skipped,
      { sent: true },
    );
  }
}

/** The addresses (lower case) of the active, unexpired email invitations. */
function pendingAddresses(services: Services, now: number): Set<string> {
  const addresses = new Set<string>();
  for (const record of services.invitations.all()) {
    if (!record.multiuse && record.email !== null && invitationState(record, now) === 'active') addresses.add(record.email.toLowerCase());
  }
  return addresses;
}

/** POST /invites/multiuse: returns the link. */
export async function createInviteLink(services: Services, actor: UserRecord, request: InvitationRequest): Promise<string> {
  const record = await services.write((tx) => {
    checkMayInvite(services, actor, 'create_multiuse_invite_group');
    const role = checkRole(actor, request.invite_as);
    const channels = channelsForInvite(services, actor, request.stream_ids);
    const groupIds = groupsForInvite(services, actor, request.group_ids ?? []);
    const welcome = checkWelcomeText(actor, request.welcome_message_custom_text);
    const created = newRecord(services, tx, actor, 'multiuse', {
      invitedAs: role,
      expiresAt: expiryOf(services, request.invite_expires_in_minutes),
      streamIds: channels.map((channel) => channel.id),
      groupIds,
      includeRealmDefaultSubscriptions: request.include_realm_default_subscriptions,
      // Zulip's PreregistrationUser default: the creator of a link hears of each joiner.
      notifyReferrerOnJoin: true,
      welcomeMessageCustomText: welcome,
    });
    services.invitations.save(created, tx);
    notifyInvitesChanged(services, tx, actor.id);
    return created;
  });
  return joinUrl(services.org.url, record.key);
}

/** Zulip's access_invite_by_id / access_multiuse_invite_by_id. */
function invitationToManage(services: Services, actor: UserRecord, kind: InvitationKind, id: number): InvitationRecord {
  const guest = mayActAsMember(actor);
  if (guest) throw refusalError(guest);
  const record = services.invitations.get(invitationId(kind, id));
  // A used or revoked email invitation is gone, as Zulip deletes it.
  if (!record || (kind === 'email' && record.status !== 'active')) throw badRequest('No such invitation');
  const refusal = manageRefusal(actor, record);
  if (refusal) throw badRequest(refusal);
  if (record.status === 'revoked') throw badRequest('Invitation has already been revoked');
  return record;
}

/** DELETE /invites/{invite_id} and DELETE /invites/multiuse/{invite_id} */
export async function revokeInvitation(services: Services, actor: UserRecord, kind: InvitationKind, id: number): Promise<void> {
  await services.write((tx) => {
    const record = invitationToManage(services, actor, kind, id);
    services.invitations.save({ ...record, status: 'revoked' }, tx);
    notifyInvitesChanged(services, tx, record.invitedBy);
  });
}

/** POST /invites/{invite_id}/resend: the same link, mailed again. */
export async function resendInvitation(services: Services, actor: UserRecord, id: number): Promise<void> {
  await services.write((tx) => {
    const record = invitationToManage(services, actor, 'email', id);
    const now = unixSeconds(services.clock);
    // Nobody can follow an expired link: GET /invites no longer lists it, as Zulip's.
    if (invitationState(record, now) !== 'active') throw badRequest('No such invitation');
    checkDailyLimit(services, now, 1);
    services.invitations.save(mailInvitation(services, tx, record, now), tx);
  });
}
