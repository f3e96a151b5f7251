/**
 * The documents of a data export in Zulip's export format (what `manage.py import` reads):
 * `realm.json` with the organization's tables, `messages-000001.json` with the messages and each
 * holder's flags, `attachment.json`, and the uploaded files with `uploads/records.json`. A public
 * export holds public channels' messages only; with consent, also the private data (private
 * channels, direct messages) that consenting users hold.
 */
import { createHash } from 'node:crypto';
import { ExportType } from '../domain/realm-export.js';
import type { MessageRecord } from '../domain/messages.js';
import type { UserRecord } from '../domain/users.js';
import { isAdmin, isGuest, isModerator, isOwner } from '../domain/roles.js';
import type { Services } from '../services.js';
import { messageFlags } from './message-state.js';

export interface ExportFile {
  name: string;
  data: Buffer;
}

const RECIPIENT_PERSONAL = 1;
const RECIPIENT_STREAM = 2;
const RECIPIENT_GROUP = 3;

const json = (value: unknown) => Buffer.from(JSON.stringify(value, null, 2));

function userRow(services: Services, user: UserRecord): Record<string, unknown> {
  const { org } = services;
  return {
    id: user.id,
    realm: org.id,
    email: user.isBot ? user.deliveryEmail : `user${user.id}@${org.host}`,
    delivery_email: user.deliveryEmail,
    full_name: user.fullName,
    role: user.role,
    is_active: user.isActive,
    is_bot: user.isBot,
    bot_type: user.botType,
    bot_owner: user.botOwnerId,
    is_realm_admin: isAdmin(user.role),
    is_realm_owner: isOwner(user.role),
    is_moderator: isModerator(user.role),
    is_guest: isGuest(user.role),
    date_joined: user.dateJoined / 1000,
    timezone: user.timezone,
    avatar_source: user.avatarSource,
    avatar_version: user.avatarVersion,
    recipient: user.recipientId,
    email_address_visibility: user.emailAddressVisibility,
    api_key: user.apiKey,
    password: user.passwordHash === null ? '!' : '',
    default_sending_stream: user.defaultSendingChannel ?? null,
    default_events_register_stream: user.defaultEventsRegisterChannel ?? null,
    default_all_public_streams: user.defaultAllPublicStreams ?? false,
    ...user.settings,
  };
}

/** Zulip's `get_direct_message_group_hash`: the sorted ids, joined, hashed. */
const groupHash = (ids: readonly number[]) => createHash('sha1').update([...ids].sort((a, b) => a - b).join(',')).digest('hex');

function realmDocument(services: Services, users: readonly UserRecord[], groupRecipients: Map<number, number[]>, clients: Map<string, number>): Record<string, unknown> {
  const { org } = services;
  const channels = [...org.channels.all()];
  const subscriptions: Record<string, unknown>[] = [];
  for (const user of users) {
    for (const [channelId, state] of Object.entries(services.subscriptions.channelsOf(user.id))) {
      const channel = org.channels.get(Number(channelId));
      if (!channel) continue;
      subscriptions.push({ user_profile: user.id, recipient: channel.recipientId, active: services.subscriptions.isSubscribed(user.id, channel.id), ...(state as object) });
    }
  }
  const recipients = [
    ...users.map((u) => ({ id: u.recipientId, type: RECIPIENT_PERSONAL, type_id: u.id })),
    ...channels.map((c) => ({ id: c.recipientId, type: RECIPIENT_STREAM, type_id: c.id })),
    ...[...groupRecipients.keys()].map((id) => ({ id, type: RECIPIENT_GROUP, type_id: id })),
  ];
  const groups = [...org.groups.all()];
  return {
    zerver_realm: [{ id: org.id, string_id: org.realm.subdomain, name: org.realm.name, description: org.realm.description, deactivated: org.realm.deactivated, date_created: org.realm.dateCreated, ...org.realm.settings }],
    zerver_userprofile: users.filter((u) => u.isActive).map((u) => userRow(services, u)),
    zerver_userprofile_mirrordummy: users.filter((u) => !u.isActive).map((u) => userRow(services, u)),
    zerver_userprofile_crossrealm: [],
    zerver_stream: channels.map((c) => ({
      id: c.id, realm: org.id, name: c.name, description: c.description, rendered_description: c.renderedDescription, invite_only: c.inviteOnly,
      is_web_public: c.isWebPublic, history_public_to_subscribers: c.historyPublicToSubscribers, deactivated: c.isArchived, date_created: c.dateCreated,
      creator: c.creatorId, recipient: c.recipientId, first_message_id: c.firstMessageId, message_retention_days: c.messageRetentionDays, ...c.settings,
    })),
    zerver_defaultstream: channels.filter((c) => c.isDefault).map((c, i) => ({ id: i + 1, realm: org.id, stream: c.id })),
    zerver_recipient: recipients,
    zerver_subscription: subscriptions.map((s, i) => ({ id: i + 1, ...s })),
    zerver_huddle: [...groupRecipients].map(([id, members]) => ({ id, huddle_hash: groupHash(members), recipient: id, group_size: members.length })),
    zerver_usergroup: groups.map((g) => ({ id: g.id, realm: org.id, name: g.name, description: g.description, is_system_group: g.isSystemGroup, deactivated: g.deactivated, ...g.settings })),
    zerver_usergroupmembership: groups.flatMap((g) => g.directMembers.map((userId) => ({ user_group: g.id, user_profile: userId }))),
    zerver_groupgroupmembership: groups.flatMap((g) => g.directSubgroups.map((subgroupId) => ({ supergroup: g.id, subgroup: subgroupId }))),
    zerver_customprofilefield: org.realm.profileFields ?? [],
    zerver_customprofilefieldvalue: users.flatMap((u) => Object.entries(u.profileData).map(([field, value]) => ({ user_profile: u.id, field: Number(field), value }))),
    zerver_client: [...clients].map(([name, id]) => ({ id, name })),
  };
}

/** Whether a message belongs in this export: public channels always; the rest only with consent. */
function exported(services: Services, record: MessageRecord, type: number, consenting: ReadonlySet<number>): boolean {
  if (record.type === 'stream') {
    const channel = services.org.channels.get(record.channelId!);
    if (channel && !channel.inviteOnly) return true;
  }
  if (type !== ExportType.FULL_WITH_CONSENT) return false;
  if (record.type === 'private') return (record.dmUserIds ?? []).some((id) => consenting.has(id));
  return true;
}

/** Every file of the export, built from the state of now. */
export async function exportFiles(services: Services, type: number): Promise<ExportFile[]> {
  const { org } = services;
  const users = [...org.users.all()].filter((u) => !u.isSystemBot);
  const consenting = new Set(users.filter((u) => u.settings.allow_private_data_export === true).map((u) => u.id));
  const clients = new Map<string, number>();
  const groupRecipients = new Map<number, number[]>();
  const messages: Record<string, unknown>[] = [];
  const userMessages: Record<string, unknown>[] = [];
  for await (const id of services.messages.ids({ of: 'all' }, { reverse: false })) {
    const record = services.messages.get(id);
    if (!record || !exported(services, record, type, consenting)) continue;
    if (!clients.has(record.client)) clients.set(record.client, clients.size + 1);
    if (record.type === 'private' && (record.dmUserIds?.length ?? 0) > 2) groupRecipients.set(record.recipientId, record.dmUserIds!);
    messages.push({
      id: record.id, sender: record.senderId, recipient: record.recipientId, realm: org.id, subject: record.topic ?? '', content: record.content,
      rendered_content: record.renderedContent, rendered_content_version: 1, date_sent: record.timestamp, sending_client: clients.get(record.client),
      last_edit_time: record.editHistory.at(-1)?.timestamp ?? null, edit_history: record.editHistory.length > 0 ? JSON.stringify(record.editHistory) : null,
      has_attachment: services.attachments.ofMessage(record.id).length > 0, has_image: false, has_link: record.renderedContent.includes('<a '), type: 1,
      is_channel_message: record.type === 'stream',
    });
    for (const user of users) {
      const flags = messageFlags(services, user.id, record);
      if (flags !== undefined) userMessages.push({ id: userMessages.length + 1, user_profile: user.id, message: record.id, flags });
    }
  }
  const attachments = users.flatMap((u) => services.attachments.ofOwner(u.id));
  const files: ExportFile[] = [
    { name: 'realm.json', data: json(realmDocument(services, users, groupRecipients, clients)) },
    { name: 'messages-000001.json', data: json({ zerver_message: messages, zerver_usermessage: userMessages }) },
    {
      name: 'attachment.json',
      data: json({
        zerver_attachment: attachments.map((a) => ({ id: a.id, realm: org.id, owner: a.ownerId, file_name: a.name, path_id: a.pathId, size: a.size, create_time: a.createTime / 1000, content_type: a.contentType, is_realm_public: true, messages: a.messageIds })),
      }),
    },
    {
      name: 'uploads/records.json',
      data: json(attachments.map((a) => ({ path: a.pathId, s3_path: a.pathId, realm_id: org.id, user_profile_id: a.ownerId, content_type: a.contentType, size: a.size, last_modified: a.createTime / 1000 }))),
    },
  ];
  for (const a of attachments) {
    const bytes = await services.files.read(services.files.blobPath(a.sha256));
    if (bytes) files.push({ name: `uploads/${a.pathId}`, data: bytes });
  }
  return files;
}
