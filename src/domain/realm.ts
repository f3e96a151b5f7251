/** The organization (realm) record and the defaults of its settings. */
import type { GroupSettingValue } from './groups.js';
import type { SystemGroupName } from './system-groups.js';
import { gravatarHash } from './avatar.js';
import { escapeText } from './html.js';
import type { ProfileFieldRecord } from './profile-fields.js';
import type { RealmExportRecord } from './realm-export.js';
import type { LinkifierRecord, PlaygroundRecord } from './linkifiers.js';

export interface RealmRecord {
  id: number;
  /**
   * The organization's subdomain (Zulip's `string_id`): `a` lives at `a.<root host>`; empty for
   * the root organization. Records written before subdomains existed read as '' (store/organization.ts).
   */
  subdomain: string;
  name: string;
  description: string;
  deactivated: boolean;
  /** Unix seconds. */
  dateCreated: number;
  /** System group ids by name. */
  systemGroups: Record<SystemGroupName, number>;
  /** Settings reported by POST /register as `realm_<key>`; see REALM_DEFAULTS. */
  settings: RealmSettings;
  /** Custom profile fields (absent until the first is created). */
  profileFields?: readonly ProfileFieldRecord[];
  /** Linkifiers in the order they apply (absent until the first is added). */
  linkifiers?: readonly LinkifierRecord[];
  /** Code playgrounds, oldest first (absent until the first is added). */
  playgrounds?: readonly PlaygroundRecord[];
  /** Data exports, oldest first (absent until the first is asked for). */
  exports?: readonly RealmExportRecord[];
  /** Channel folders (absent until the first is created). */
  channelFolders?: readonly ChannelFolderRecord[];
  /** Personal settings new users start with, where the administrators changed Zulip's defaults. */
  userSettingsDefaults?: Readonly<Record<string, unknown>>;
}

/** A channel folder (Zulip 11's ChannelFolder); its rules are in channel-folders.ts. */
export interface ChannelFolderRecord {
  id: number;
  name: string;
  description: string;
  renderedDescription: string;
  creatorId: number | null;
  /** Unix seconds. */
  dateCreated: number;
  isArchived: boolean;
  /** Position in the organization's list (0 first). */
  order: number;
}

export interface RealmSettings {
  [key: string]: unknown;
  mandatory_topics: boolean;
  allow_message_editing: boolean;
  allow_edit_history: boolean;
  message_content_edit_limit_seconds: number | null;
  message_content_delete_limit_seconds: number | null;
  move_messages_within_stream_limit_seconds: number | null;
  move_messages_between_streams_limit_seconds: number | null;
  moderation_request_channel_id: number;
  email_address_visibility: number;
  web_public_streams_enabled: boolean;
  enable_spectator_access: boolean;
  waiting_period_threshold: number;
  message_retention_days: number;
  default_language: string;
  enable_read_receipts: boolean;
  empty_topic_display_name?: string;
}

/** Group settings of the organization, by the system group that holds them by default. */
export const REALM_GROUP_SETTING_DEFAULTS: Record<string, SystemGroupName> = {
  can_access_all_users_group: 'role:everyone',
  can_add_custom_emoji_group: 'role:members',
  can_add_subscribers_group: 'role:members',
  can_create_bots_group: 'role:members',
  can_create_groups: 'role:members',
  can_create_private_channel_group: 'role:members',
  can_create_public_channel_group: 'role:members',
  can_create_web_public_channel_group: 'role:owners',
  can_create_write_only_bots_group: 'role:members',
  can_delete_any_message_group: 'role:administrators',
  can_delete_own_message_group: 'role:everyone',
  can_invite_users_group: 'role:members',
  can_manage_all_groups: 'role:owners',
  can_manage_billing_group: 'role:administrators',
  can_mention_many_users_group: 'role:administrators',
  can_move_messages_between_channels_group: 'role:members',
  can_move_messages_between_topics_group: 'role:everyone',
  can_resolve_topics_group: 'role:everyone',
  can_set_delete_message_policy_group: 'role:moderators',
  can_set_topics_policy_group: 'role:members',
  can_summarize_topics_group: 'role:everyone',
  create_multiuse_invite_group: 'role:administrators',
  direct_message_initiator_group: 'role:everyone',
  direct_message_permission_group: 'role:everyone',
};

export const REALM_DEFAULTS: RealmSettings = {
  mandatory_topics: false,
  allow_message_editing: true,
  allow_edit_history: true,
  message_content_edit_limit_seconds: 600,
  message_content_delete_limit_seconds: 600,
  move_messages_within_stream_limit_seconds: 604800,
  move_messages_between_streams_limit_seconds: 604800,
  moderation_request_channel_id: -1,
  email_address_visibility: 1,
  web_public_streams_enabled: false,
  enable_spectator_access: false,
  waiting_period_threshold: 0,
  message_retention_days: -1,
  default_language: 'en',
  enable_read_receipts: true,
  // Changed only by PATCH /realm: Zulip's defaults for a new organization.
  invite_required: true,
  emails_restricted_to_domains: false,
  disallow_disposable_email_addresses: true,
  email_changes_disabled: false,
  name_changes_disabled: false,
  avatar_changes_disabled: false,
  require_unique_names: false,
  inline_image_preview: true,
  inline_url_embed_preview: false,
  digest_emails_enabled: false,
  digest_weekday: 1,
  send_welcome_emails: true,
  message_content_allowed_in_email_notifications: true,
  want_advertise_in_communities_directory: false,
  enable_guest_user_indicator: true,
  enable_guest_user_dm_warning: true,
  video_chat_provider: 1,
  jitsi_server_url: null,
  giphy_rating: 2,
  default_code_block_language: '',
  require_e2ee_push_notifications: false,
  welcome_message_custom_text: '',
  org_type: 0,
  new_stream_announcements_stream_id: -1,
  signup_announcements_stream_id: -1,
  zulip_update_announcements_stream_id: -1,
};

/** Zulip's topics_policy of the organization, kept with the older `mandatory_topics` it replaced. */
export function realmTopicsPolicy(realm: RealmRecord): string {
  return (realm.settings.topics_policy as string | undefined) ?? (realmSetting(realm, 'mandatory_topics') ? 'disable_empty_topic' : 'allow_empty_topic');
}

/** Zulip's message_edit_history_visibility_policy, kept with the older `allow_edit_history` it replaced. */
export function editHistoryPolicy(realm: RealmRecord): string {
  return (realm.settings.message_edit_history_visibility_policy as string | undefined) ?? (realmSetting(realm, 'allow_edit_history') ? 'all' : 'none');
}

export const EMPTY_TOPIC_DISPLAY_NAME = 'general chat';

/** A setting's value; a stored null (as in "no time limit") is a value, not a missing setting. */
export function realmSetting<K extends keyof RealmSettings>(realm: RealmRecord, key: K): RealmSettings[K] {
  return (key in realm.settings ? realm.settings[key] : REALM_DEFAULTS[key]) as RealmSettings[K];
}

/** A group setting of the organization, as a group-setting value. */
export function realmGroupSetting(realm: RealmRecord, key: string): GroupSettingValue {
  const stored = realm.settings[key] as GroupSettingValue | undefined;
  if (stored !== undefined) return stored;
  const systemGroup = REALM_GROUP_SETTING_DEFAULTS[key];
  if (!systemGroup) throw new Error(`unknown realm group setting ${key}`);
  return realm.systemGroups[systemGroup];
}

/** The default organization icon: a Gravatar identicon of the organization's short name. */
export function realmIconUrl(subdomain: string): string {
  return `https://secure.gravatar.com/avatar/${gravatarHash(subdomain)}?d=identicon`;
}

/** The organization description as HTML; none is empty (as Zulip's), never a placeholder. */
export function renderedRealmDescription(description: string): string {
  const text = description.trim();
  if (text === '') return '';
  return `<p>${escapeText(text)}</p>`;
}
