/**
 * Rules of channel administration (Zulip's PATCH/DELETE /streams/{id}): who administers a
 * channel, what each channel group setting may hold, the privacy combinations a channel may be
 * in, message retention values, and the names Zulip gives the privacy policies in its notices.
 */
import type { ChannelRecord } from './channel-record.js';
import { badRequest } from './errors.js';
import type { GroupLookup } from './groups.js';
import { holdsGroupPermission, type PermissionHolder } from './group-permissions.js';
import type { Refusal } from './refusal.js';
import { isAdmin, isOwner, type Role } from './roles.js';

export const CHANNEL_SETTING_NAMES = [
  'can_add_subscribers_group', 'can_administer_channel_group', 'can_delete_any_message_group', 'can_delete_own_message_group',
  'can_move_messages_out_of_channel_group', 'can_move_messages_within_channel_group', 'can_remove_subscribers_group',
  'can_resolve_topics_group', 'can_send_message_group', 'can_subscribe_group',
] as const;
export type ChannelSettingName = (typeof CHANNEL_SETTING_NAMES)[number];

/** Zulip's Stream.stream_permission_group_settings: may the value be `role:everyone`? (None may be `role:internet`.) */
export const CHANNEL_SETTING_ALLOWS_EVERYONE: Readonly<Record<ChannelSettingName, boolean>> = {
  can_add_subscribers_group: false,
  can_administer_channel_group: false,
  can_delete_any_message_group: false,
  can_delete_own_message_group: true,
  can_move_messages_out_of_channel_group: true,
  can_move_messages_within_channel_group: true,
  can_remove_subscribers_group: false,
  can_resolve_topics_group: true,
  can_send_message_group: true,
  can_subscribe_group: false,
};


/** Settings whose change needs content access to the channel, not only the right to administer it. */
export const SETTINGS_NEEDING_CONTENT_ACCESS: ReadonlySet<ChannelSettingName> = new Set(['can_add_subscribers_group', 'can_subscribe_group']);

/** The system groups a channel setting may not hold. */
export function forbiddenChannelGroups(name: ChannelSettingName): string[] {
  return CHANNEL_SETTING_ALLOWS_EVERYONE[name] ? ['role:internet'] : ['role:internet', 'role:everyone'];
}

export const CANNOT_ADMINISTER: Refusal = { code: 'BAD_REQUEST', msg: 'You do not have permission to administer this channel.' };
const INVALID_CHANNEL: Refusal = { code: 'BAD_REQUEST', msg: 'Invalid channel ID' };

/** Is the user in the channel's `can_administer_channel_group` (organization administrators always are)? */
export function administersChannel(user: PermissionHolder, channel: ChannelRecord, groups: GroupLookup): boolean {
  if (isAdmin(user.role)) return true;
  return holdsGroupPermission(user, channel.settings.can_administer_channel_group, groups, { allowEveryone: false });
}

/**
 * Zulip's access_stream_for_delete_or_update_requiring_metadata_access: administrators of the
 * channel pass; those who may read it are told they may not administer it; everyone else gets
 * "Invalid channel ID", so a private channel's existence is not revealed.
 */
export function mayAdministerChannel(user: PermissionHolder, channel: ChannelRecord | undefined, groups: GroupLookup, readsContent: boolean): Refusal | null {
  if (!channel) return INVALID_CHANNEL;
  if (administersChannel(user, channel, groups)) return null;
  return readsContent ? CANNOT_ADMINISTER : INVALID_CHANNEL;
}

export interface Privacy {
  inviteOnly: boolean;
  historyPublicToSubscribers: boolean;
  isWebPublic: boolean;
}

/**
 * The privacy a PATCH asks for, Zulip's way: unspecified parts keep their value, except that
 * history follows privacy when only `is_private` is given; the combinations Zulip refuses are
 * "Invalid parameters".
 */
export function plannedPrivacy(current: Privacy, asked: { isPrivate?: boolean; isWebPublic?: boolean; historyPublic?: boolean }): Privacy {
  const inviteOnly = asked.isPrivate ?? current.inviteOnly;
  const isWebPublic = asked.isWebPublic ?? current.isWebPublic;
  const historyPublicToSubscribers = asked.historyPublic ?? (asked.isPrivate !== undefined ? !asked.isPrivate : current.historyPublicToSubscribers);
  if (isWebPublic && (!historyPublicToSubscribers || inviteOnly)) throw badRequest('Invalid parameters');
  if (!inviteOnly && !historyPublicToSubscribers) throw badRequest('Invalid parameters');
  return { inviteOnly, historyPublicToSubscribers, isWebPublic };
}

/** Zulip's Stream.PERMISSION_POLICIES names, as its notices show them. */
export function privacyPolicyName(privacy: Privacy): string {
  if (privacy.isWebPublic) return 'Web-public';
  if (privacy.inviteOnly) return privacy.historyPublicToSubscribers ? 'Private, shared history' : 'Private, protected history';
  return privacy.historyPublicToSubscribers ? 'Public' : 'Public, protected history';
}

/**
 * Zulip's parse_message_retention_days: a positive number of days, or a special word (for a
 * channel `unlimited` is -1 and `realm_default` is null; for the organization only `unlimited`).
 */
export function parseRetentionDays(value: number | string, specials: Readonly<Record<string, number | null>>): number | null {
  if (typeof value === 'string' && value in specials) return specials[value]!;
  if (typeof value === 'string' || value <= 0) throw badRequest(`Bad value for 'message_retention_days': ${String(value)}`);
  return value;
}

export const CHANNEL_RETENTION_SPECIALS: Readonly<Record<string, number | null>> = { unlimited: -1, realm_default: null };
export const REALM_RETENTION_SPECIALS: Readonly<Record<string, number | null>> = { unlimited: -1 };

/** Zulip's notice text for a retention change (`realmDays` stands in for a channel following the organization). */
export function retentionNotice(mention: string, before: number | null, after: number | null, realmDays: number): string {
  const old = before ?? realmDays;
  const next = after ?? realmDays;
  const days = (n: number) => `${n} days`;
  const summary = next === -1
    ? 'Messages in this channel will now be retained forever.'
    : `Messages in this channel will now be automatically deleted ${next} days after they are sent.`;
  return `${mention} has changed the [message retention period](/help/message-retention-policy) for this channel:\n`
    + `* **Old retention period**: ${old === -1 ? 'Forever' : days(old)}\n`
    + `* **New retention period**: ${next === -1 ? 'Forever' : days(next)}\n\n`
    + summary;
}

/** Zulip's notice for a description change. */
export function descriptionNotice(mention: string, before: string, after: string): string {
  const shown = (text: string) => (text === '' ? '*No description.*' : text);
  return `${mention} changed the description for this channel.\n\n* **Old description:**\n\`\`\`\` quote\n${shown(before)}\n\`\`\`\`\n`
    + `* **New description:**\n\`\`\`\` quote\n${shown(after)}\n\`\`\`\``;
}

/** The topic Zulip posts channel notices in (Realm.STREAM_EVENTS_NOTIFICATION_TOPIC_NAME). */
export const CHANNEL_EVENTS_TOPIC = 'channel events';

/** Zulip's require_realm_admin and require_realm_owner (the spec gives them the code BAD_REQUEST). */
export function requireAdministrator(role: Role): void {
  if (!isAdmin(role)) throw badRequest('Must be an organization administrator');
}
export function requireOwner(role: Role): void {
  if (!isOwner(role)) throw badRequest('Must be an organization owner');
}
