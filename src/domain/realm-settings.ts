/**
 * What `PATCH /realm` may change (Zulip's update_realm): the plain properties with their checks
 * beyond type and the event each sends, the group settings with the system groups each may not
 * hold, the settings only owners change, and the values of the enumerations Zulip checks.
 */
import { badRequest } from './errors.js';
import { LANGUAGE_NAMES } from './user-settings.js';

/**
 * Plain properties (Zulip's Realm.property_types that update_realm takes) and whether their
 * event is the legacy `update_dict` (the message-editing ones) rather than `update`.
 */
export const REALM_PROPERTIES: Readonly<Record<string, { updateDict?: true }>> = {
  name: {},
  description: {},
  allow_message_editing: { updateDict: true },
  message_content_edit_limit_seconds: { updateDict: true },
  message_content_delete_limit_seconds: {},
  move_messages_within_stream_limit_seconds: {},
  move_messages_between_streams_limit_seconds: {},
  message_edit_history_visibility_policy: {},
  topics_policy: {},
  mandatory_topics: {},
  avatar_changes_disabled: {},
  default_code_block_language: {},
  default_language: {},
  digest_emails_enabled: {},
  digest_weekday: {},
  disallow_disposable_email_addresses: {},
  email_changes_disabled: {},
  emails_restricted_to_domains: {},
  enable_guest_user_dm_warning: {},
  enable_guest_user_indicator: {},
  enable_read_receipts: {},
  enable_spectator_access: {},
  giphy_rating: {},
  inline_image_preview: {},
  inline_url_embed_preview: {},
  invite_required: {},
  jitsi_server_url: {},
  message_content_allowed_in_email_notifications: {},
  message_retention_days: {},
  name_changes_disabled: {},
  require_e2ee_push_notifications: {},
  require_unique_names: {},
  send_welcome_emails: {},
  video_chat_provider: {},
  waiting_period_threshold: {},
  want_advertise_in_communities_directory: {},
  welcome_message_custom_text: {},
  org_type: {},
};

/** Settings whose value is a channel id (-1: none), sent as `update_dict`. */
export const CHANNEL_VALUED_SETTINGS = [
  'moderation_request_channel_id',
  'new_stream_announcements_stream_id',
  'signup_announcements_stream_id',
  'zulip_update_announcements_stream_id',
] as const;

/** Only owners change these (Zulip raises OrganizationOwnerRequiredError). */
export const OWNER_ONLY_SETTINGS = new Set([
  'invite_required', 'create_multiuse_invite_group', 'can_create_groups', 'can_invite_users_group', 'can_manage_all_groups',
  'emails_restricted_to_domains', 'disallow_disposable_email_addresses', 'waiting_period_threshold', 'message_retention_days',
  'authentication_methods', 'string_id',
]);

/** Organization group settings that may be `role:everyone` (Zulip's allow_everyone_group); none may be `role:internet`. */
export const REALM_GROUP_SETTING_ALLOWS_EVERYONE: Readonly<Record<string, boolean>> = {
  can_access_all_users_group: true,
  can_add_custom_emoji_group: false,
  can_add_subscribers_group: false,
  can_create_bots_group: false,
  can_create_groups: false,
  can_create_private_channel_group: false,
  can_create_public_channel_group: false,
  can_create_web_public_channel_group: false,
  can_create_write_only_bots_group: false,
  can_delete_any_message_group: false,
  can_delete_own_message_group: true,
  can_invite_users_group: false,
  can_manage_all_groups: false,
  can_manage_billing_group: false,
  can_mention_many_users_group: true,
  can_move_messages_between_channels_group: false,
  can_move_messages_between_topics_group: true,
  can_resolve_topics_group: true,
  can_set_delete_message_policy_group: false,
  can_set_topics_policy_group: false,
  can_summarize_topics_group: true,
  create_multiuse_invite_group: false,
  direct_message_initiator_group: true,
  direct_message_permission_group: true,
};

/** Settings that must be one system group, not a combination (Zulip's require_system_group). */
export const SYSTEM_GROUP_ONLY_SETTINGS = new Set(['can_access_all_users_group', 'can_create_web_public_channel_group']);

/** The system groups an organization group setting may not hold. */
export function forbiddenRealmGroups(name: string): string[] {
  // Who may see all users is either everyone or the members (Zulip's allowed_system_groups).
  if (name === 'can_access_all_users_group') return ['role:internet', 'role:owners', 'role:administrators', 'role:moderators', 'role:fullmembers', 'role:nobody'];
  return REALM_GROUP_SETTING_ALLOWS_EVERYONE[name] ? ['role:internet'] : ['role:internet', 'role:everyone'];
}

export const VIDEO_CHAT_PROVIDER_IDS = new Set([0, 1]);
export const GIPHY_RATING_IDS = new Set([0, 1, 2, 3, 4, 5]);
export const ORG_TYPES = [0, 10, 20, 30, 35, 40, 50, 60, 70, 80, 90, 100, 1000] as const;
export const JITSI_URL_MAX_LENGTH = 200;
export const MAX_REALM_NAME_LENGTH = 40;
export const MAX_REALM_DESCRIPTION_LENGTH = 1000;

/** Zulip's checks of PATCH /realm values beyond their types (the endpoint's schema checks types and enumerations). */
export function checkRealmValue(name: string, value: unknown): void {
  switch (name) {
    case 'default_language':
      if (!(String(value) in LANGUAGE_NAMES)) throw badRequest(`Invalid language '${String(value)}'`);
      return;
    case 'video_chat_provider':
      if (!VIDEO_CHAT_PROVIDER_IDS.has(value as number)) throw badRequest(`Invalid video_chat_provider ${String(value)}`);
      return;
    case 'giphy_rating':
      if (!GIPHY_RATING_IDS.has(value as number)) throw badRequest(`Invalid giphy_rating ${String(value)}`);
      return;
  }
}

/** Zulip's parse_message_time_limit_setting: seconds above zero, or `unlimited` (null). */
export function parseTimeLimit(name: string, value: number | string): number | null {
  if (value === 'unlimited') return null;
  if (typeof value === 'string' || value <= 0) throw badRequest(`Bad value for '${name}': ${String(value)}`);
  return value;
}

/** Zulip's check_jitsi_url: `default` (null, the server's) or a URL of at most 200 characters. */
export function parseJitsiUrl(value: string): string | null {
  if (value === 'default') return null;
  let ok = value.length <= JITSI_URL_MAX_LENGTH;
  try {
    const url = new URL(value);
    ok &&= url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    ok = false;
  }
  if (!ok) throw badRequest('jitsi_server_url is not an allowed_type');
  return value;
}

/** The authentication methods this server has, as register reports them; only email and password. */
export function checkAuthenticationMethods(methods: Record<string, unknown>): void {
  for (const [name, enabled] of Object.entries(methods)) {
    if (name !== 'Email') throw badRequest(`Invalid authentication method: ${name}.`);
    if (typeof enabled !== 'boolean') throw badRequest(`authentication_methods["${name}"] is not a boolean`);
  }
  if (!Object.values(methods).includes(true)) throw badRequest('At least one authentication method must be enabled.');
}
