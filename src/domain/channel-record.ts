/** Channel records, who may see a channel and read its messages, and the channel objects the API returns. */
import type { GroupSettingValue } from './groups.js';
import { isGuest, type Role } from './roles.js';
import type { SystemGroupName } from './system-groups.js';

export interface ChannelRecord {
  id: number;
  name: string;
  description: string;
  renderedDescription: string;
  inviteOnly: boolean;
  isWebPublic: boolean;
  historyPublicToSubscribers: boolean;
  /** New users are subscribed to default channels. */
  isDefault: boolean;
  isArchived: boolean;
  /** Unix seconds. */
  dateCreated: number;
  creatorId: number | null;
  recipientId: number;
  firstMessageId: number | null;
  messageRetentionDays: number | null;
  topicsPolicy: 'inherit' | 'allow_empty_topic' | 'disable_empty_topic' | 'empty_topic_only';
  /** The channel folder it is filed in (absent in records written before folders existed). */
  folderId?: number | null;
  /** Permission settings (`can_send_message_group`, …) as group-setting values. */
  settings: Record<string, GroupSettingValue>;
}

/** Channel permission settings and the system group each defaults to (null: the creator alone). */
export const CHANNEL_GROUP_SETTING_DEFAULTS: Record<string, SystemGroupName | null> = {
  can_add_subscribers_group: 'role:nobody',
  can_administer_channel_group: null,
  can_delete_any_message_group: 'role:nobody',
  can_delete_own_message_group: 'role:nobody',
  can_move_messages_out_of_channel_group: 'role:nobody',
  can_move_messages_within_channel_group: 'role:nobody',
  can_remove_subscribers_group: 'role:administrators',
  can_resolve_topics_group: 'role:nobody',
  can_send_message_group: 'role:everyone',
  can_subscribe_group: 'role:nobody',
};

export function defaultChannelSettings(systemGroups: Record<SystemGroupName, number>, creatorId: number | null): Record<string, GroupSettingValue> {
  const settings: Record<string, GroupSettingValue> = {};
  for (const [key, group] of Object.entries(CHANNEL_GROUP_SETTING_DEFAULTS)) {
    settings[key] = group === null ? { direct_members: creatorId === null ? [] : [creatorId], direct_subgroups: [] } : systemGroups[group];
  }
  return settings;
}

export interface Viewer {
  id: number;
  role: Role;
}

/** May `viewer` read the channel's messages (its content)? */
export function canAccessContent(viewer: Viewer, channel: ChannelRecord, subscribed: boolean): boolean {
  if (subscribed || channel.isWebPublic) return true;
  return !channel.inviteOnly && !isGuest(viewer.role);
}

/** May `viewer` read messages sent before they subscribed (history)? */
export function canAccessHistory(viewer: Viewer, channel: ChannelRecord, subscribed: boolean): boolean {
  if (channel.isWebPublic) return true;
  if (!channel.inviteOnly) return !isGuest(viewer.role) || subscribed;
  return channel.historyPublicToSubscribers && subscribed;
}

/** Does `viewer` know the channel exists? Administrators know every channel; guests only theirs. */
export function canSeeChannel(viewer: Viewer, channel: ChannelRecord, subscribed: boolean, isAdministrator: boolean): boolean {
  if (subscribed || channel.isWebPublic) return true;
  if (isGuest(viewer.role)) return false;
  return !channel.inviteOnly || isAdministrator;
}

/** Zulip's legacy `stream_post_policy` from who may send: 1 everyone, 2 admins, 3 full members, 4 moderators. */
export function streamPostPolicy(sendGroup: GroupSettingValue, systemGroups: Record<SystemGroupName, number>): number {
  if (sendGroup === systemGroups['role:administrators']) return 2;
  if (sendGroup === systemGroups['role:fullmembers']) return 3;
  if (sendGroup === systemGroups['role:moderators']) return 4;
  return 1;
}

/** The channel object of `GET /streams` and of `stream` events. */
export function formatChannel(channel: ChannelRecord, subscriberCount: number, systemGroups: Record<SystemGroupName, number>): Record<string, unknown> {
  const policy = streamPostPolicy(channel.settings.can_send_message_group, systemGroups);
  return {
    stream_id: channel.id,
    name: channel.name,
    description: channel.description,
    rendered_description: channel.renderedDescription,
    date_created: channel.dateCreated,
    creator_id: channel.creatorId,
    invite_only: channel.inviteOnly,
    is_web_public: channel.isWebPublic,
    is_archived: channel.isArchived,
    history_public_to_subscribers: channel.historyPublicToSubscribers,
    first_message_id: channel.firstMessageId,
    folder_id: channel.folderId ?? null,
    is_recently_active: true,
    message_retention_days: channel.messageRetentionDays,
    stream_post_policy: policy,
    is_announcement_only: policy === 2,
    stream_weekly_traffic: null,
    subscriber_count: subscriberCount,
    topics_policy: channel.topicsPolicy,
    ...channel.settings,
  };
}
