/**
 * Administering a channel (Zulip's update_stream_backend and do_deactivate_stream): privacy and
 * history, default status, retention, unarchiving, topics policy, description, name, folder and
 * the group settings in one write, each with its `stream` `update` events and the notification
 * bot's notice in "channel events"; archiving. The refused part of a request changes nothing.
 */
import {
  CHANNEL_RETENTION_SPECIALS, CHANNEL_SETTING_NAMES, descriptionNotice, forbiddenChannelGroups, mayAdministerChannel,
  parseRetentionDays, plannedPrivacy, privacyPolicyName, requireOwner, retentionNotice, SETTINGS_NEEDING_CONTENT_ACCESS, type ChannelSettingName, type Privacy,
} from '../domain/channel-admin.js';
import { streamPostPolicy, type ChannelRecord } from '../domain/channel-record.js';
import { checkChannelName } from '../domain/channels.js';
import { requireFolder } from '../domain/channel-folders.js';
import { ApiError, badRequest } from '../domain/errors.js';
import { checkGroupSettingValue, plannedSettingChange, settingValueForApi, type GroupSettingUpdate } from '../domain/group-settings.js';
import type { GroupSettingValue } from '../domain/groups.js';
import { inRealmGroupSetting, refusalError } from '../domain/permissions.js';
import { realmSetting } from '../domain/realm.js';
import { isAdmin } from '../domain/roles.js';
import type { UserRecord } from '../domain/users.js';
import { LIMITS } from '../domain/versions.js';
import { channelReadable, usersWhoSeeChannel } from '../queries/channel-access.js';
import { channelObject } from '../queries/subscription-format.js';
import type { Services } from '../services.js';
import type { Transaction } from '../store/transaction.js';
import { channelNotice, emitUpdate, postingNotice, privacyEvents } from './channel-events.js';
import { setDefaultChannel } from './default-channels.js';
import { settingFacts } from './user-groups.js';

export type TopicsPolicy = ChannelRecord['topicsPolicy'];

/** Who may delete messages in a channel is changed only by those who may set the organization's deletion policy. */
const DELETE_POLICY_SETTINGS: ReadonlySet<ChannelSettingName> = new Set(['can_delete_any_message_group', 'can_delete_own_message_group']);

export interface ChannelChanges {
  description?: string;
  newName?: string;
  isPrivate?: boolean;
  isWebPublic?: boolean;
  historyPublicToSubscribers?: boolean;
  isDefaultStream?: boolean;
  messageRetentionDays?: number | string;
  isArchived?: boolean;
  topicsPolicy?: TopicsPolicy;
  /** undefined: not asked; null: out of its folder. */
  folderId?: number | null;
  settings: Partial<Record<ChannelSettingName, GroupSettingUpdate>>;
}

/** The channel the actor may administer (Zulip's access_stream_for_delete_or_update_requiring_metadata_access). */
export function administeredChannel(services: Services, actor: UserRecord, channelId: number): ChannelRecord {
  const channel = services.org.channels.get(channelId);
  const refusal = mayAdministerChannel(actor, channel, services.org.groups, channel !== undefined && channelReadable(services, actor, channel));
  if (refusal) throw refusalError(refusal);
  return channel!;
}

/** Saves the channel record and returns it, so that each step works on the newest one. */
function save(services: Services, tx: Transaction, channel: ChannelRecord): ChannelRecord {
  services.org.channels.save(channel, tx);
  return channel;
}

/** Zulip's checks of a privacy change (is_private, is_web_public, history_public_to_subscribers), then the change. */
function changePrivacy(services: Services, tx: Transaction, actor: UserRecord, channel: ChannelRecord, changes: ChannelChanges, proposed: Privacy): ChannelRecord {
  const { org } = services;
  if (changes.isPrivate !== undefined && !channelReadable(services, actor, channel)) throw badRequest('Channel content access is required.');
  if (changes.isPrivate !== undefined) {
    const setting = changes.isPrivate ? 'can_create_private_channel_group' : 'can_create_public_channel_group';
    if (!inRealmGroupSetting(actor, org.realm, setting, org.groups)) throw badRequest('Insufficient permission');
  }
  if (changes.isWebPublic) {
    const enabled = realmSetting(org.realm, 'web_public_streams_enabled') && realmSetting(org.realm, 'enable_spectator_access');
    if (!enabled) throw badRequest('Web-public channels are not enabled.');
    if (!inRealmGroupSetting(actor, org.realm, 'can_create_web_public_channel_group', org.groups)) throw badRequest('Insufficient permission');
  }
  if (changes.isPrivate === undefined && changes.isWebPublic === undefined && changes.historyPublicToSubscribers === undefined) return channel;
  const before: Privacy = { inviteOnly: channel.inviteOnly, historyPublicToSubscribers: channel.historyPublicToSubscribers, isWebPublic: channel.isWebPublic };
  const seeing = new Set(usersWhoSeeChannel(services, channel));
  const updated = save(services, tx, { ...channel, ...proposed });
  privacyEvents(services, tx, updated, seeing);
  channelNotice(services, tx, updated,
    `${mention(actor)} changed the [access permissions](/help/channel-permissions) for this channel from **${privacyPolicyName(before)}** to **${privacyPolicyName(proposed)}**.`);
  return updated;
}

const mention = (user: UserRecord) => `@_**${user.fullName}|${user.id}**`;

function changeRetention(services: Services, tx: Transaction, actor: UserRecord, channel: ChannelRecord, raw: number | string): ChannelRecord {
  requireOwner(actor.role);
  const days = parseRetentionDays(raw, CHANNEL_RETENTION_SPECIALS);
  const updated = save(services, tx, { ...channel, messageRetentionDays: days });
  emitUpdate(services, tx, updated, 'message_retention_days', days);
  channelNotice(services, tx, updated, retentionNotice(mention(actor), channel.messageRetentionDays, days, realmSetting(services.org.realm, 'message_retention_days')));
  return updated;
}

/** Zulip's do_unarchive_stream, under the channel's own name. */
function unarchive(services: Services, tx: Transaction, channel: ChannelRecord): ChannelRecord {
  if (!channel.isArchived) throw badRequest('Channel is not currently deactivated');
  const subscribed = [...services.org.users.all()].some((user) => services.subscriptions.subscription(user.id, channel.id)?.active);
  if (channel.inviteOnly && !subscribed) throw badRequest('Channel is private and have no subscribers');
  const updated = save(services, tx, { ...channel, isArchived: false, isWebPublic: channel.inviteOnly ? false : channel.isWebPublic });
  const seeing = usersWhoSeeChannel(services, updated);
  tx.emit({ type: 'stream', op: 'update', stream_id: updated.id, name: updated.name, property: 'is_archived', value: false, for_archived_channels: true }, seeing);
  tx.emit(() => ({ type: 'stream', op: 'create', streams: [channelObject(services, updated)], for_archived_channels: false }), seeing);
  channelNotice(services, tx, updated, `Channel #**${updated.name}** has been unarchived.`);
  return updated;
}

function rename(services: Services, tx: Transaction, actor: UserRecord, channel: ChannelRecord, requested: string): ChannelRecord {
  const name = requested.trim();
  if (channel.name === name) throw badRequest('Channel already has that name.');
  if (channel.name.toLowerCase() !== name.toLowerCase()) {
    checkChannelName(name, LIMITS.maxStreamNameLength);
    if (services.org.channels.byName(name)) throw new ApiError('CHANNEL_ALREADY_EXISTS', `Channel '${name}' already exists`, 400, { channel_name: name });
  }
  const updated = save(services, tx, { ...channel, name });
  tx.emit({ type: 'stream', op: 'update', property: 'name', value: name, stream_id: channel.id, name: channel.name }, usersWhoSeeChannel(services, updated));
  channelNotice(services, tx, updated, `${mention(actor)} renamed channel **${channel.name}** to **${name}**.`);
  return updated;
}

function describe(services: Services, tx: Transaction, actor: UserRecord, channel: ChannelRecord, requested: string): ChannelRecord {
  const description = requested.replace(/\n/g, ' ');
  const renderedDescription = description === '' ? '' : services.render(description).html;
  const updated = save(services, tx, { ...channel, description, renderedDescription });
  tx.emit({ type: 'stream', op: 'update', property: 'description', name: updated.name, stream_id: updated.id, value: description, rendered_description: renderedDescription }, usersWhoSeeChannel(services, updated));
  channelNotice(services, tx, updated, descriptionNotice(mention(actor), channel.description, description));
  return updated;
}

/** One group setting as `{new, old}`: checked, saved, and announced (posting permissions with their legacy events and a notice). */
function changeSetting(services: Services, tx: Transaction, actor: UserRecord, channel: ChannelRecord, name: ChannelSettingName, update: GroupSettingUpdate): ChannelRecord {
  const facts = settingFacts(services);
  // A record written before a setting existed grants it to nobody (as permissions read it).
  const stored = channel.settings[name] ?? facts.nobodyGroupId;
  const current = settingValueForApi(stored, facts.isActiveUser);
  const planned = plannedSettingChange(update, current, facts.nobodyGroupId);
  if (planned === undefined) return channel;
  if (SETTINGS_NEEDING_CONTENT_ACCESS.has(name) && !channelReadable(services, actor, channel)) throw badRequest('Channel content access is required.');
  if (DELETE_POLICY_SETTINGS.has(name) && !inRealmGroupSetting(actor, services.org.realm, 'can_set_delete_message_policy_group', services.org.groups)) throw badRequest('Insufficient permission');
  const value: GroupSettingValue = checkGroupSettingValue(name, forbiddenChannelGroups(name), planned, facts);
  const updated = save(services, tx, { ...channel, settings: { ...channel.settings, [name]: value } });
  emitUpdate(services, tx, updated, name, settingValueForApi(value, facts.isActiveUser));
  if (name === 'can_send_message_group') {
    const groups = services.org.realm.systemGroups;
    const before = streamPostPolicy(stored, groups);
    const after = streamPostPolicy(value, groups);
    if (before !== after) {
      emitUpdate(services, tx, updated, 'stream_post_policy', after);
      emitUpdate(services, tx, updated, 'is_announcement_only', after === 2);
    }
    postingNotice(services, tx, actor, updated, current, settingValueForApi(value, facts.isActiveUser));
  }
  return updated;
}

/** `PATCH /streams/{stream_id}`, in one write, in Zulip's order. */
export function updateChannel(services: Services, actor: UserRecord, channelId: number, changes: ChannelChanges): Promise<void> {
  return services.write((tx) => {
    const { org } = services;
    let channel = administeredChannel(services, actor, channelId);
    const proposed = plannedPrivacy(channel, { isPrivate: changes.isPrivate, isWebPublic: changes.isWebPublic, historyPublic: changes.historyPublicToSubscribers });
    const willBeDefault = changes.isDefaultStream ?? channel.isDefault;
    if (proposed.inviteOnly && willBeDefault) throw badRequest('A default channel cannot be private.');
    if (!proposed.inviteOnly && realmSetting(org.realm, 'moderation_request_channel_id') === channel.id) throw badRequest('Moderation request channel must be private.');
    channel = changePrivacy(services, tx, actor, channel, changes, proposed);
    if (changes.isDefaultStream !== undefined) {
      if (!isAdmin(actor.role)) throw badRequest('You do not have permission to change default channels.');
      channel = setDefaultChannel(services, tx, channel, changes.isDefaultStream);
    }
    if (changes.messageRetentionDays !== undefined) channel = changeRetention(services, tx, actor, channel, changes.messageRetentionDays);
    if (changes.isArchived === false) channel = unarchive(services, tx, channel);
    if (changes.topicsPolicy !== undefined && changes.topicsPolicy !== channel.topicsPolicy) {
      if (!inRealmGroupSetting(actor, org.realm, 'can_set_topics_policy_group', org.groups)) throw badRequest('Insufficient permission');
      channel = save(services, tx, { ...channel, topicsPolicy: changes.topicsPolicy });
      emitUpdate(services, tx, channel, 'topics_policy', changes.topicsPolicy);
    }
    if (changes.description !== undefined) channel = describe(services, tx, actor, channel, changes.description);
    if (changes.newName !== undefined) channel = rename(services, tx, actor, channel, changes.newName);
    if (changes.folderId !== undefined) {
      if (changes.folderId !== null) requireFolder(org.realm.channelFolders ?? [], changes.folderId);
      channel = save(services, tx, { ...channel, folderId: changes.folderId });
      emitUpdate(services, tx, channel, 'folder_id', changes.folderId);
    }
    for (const name of CHANNEL_SETTING_NAMES) {
      const update = changes.settings[name];
      if (update !== undefined) channel = changeSetting(services, tx, actor, channel, name, update);
    }
  });
}
