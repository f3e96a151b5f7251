/** The `realm` block of `POST /register`: the organization's settings and the server's limits, as Zulip 11 reports them. */
import { realmPushState } from './push-devices.js';
import { MIN_PASSWORD_LENGTH } from '../domain/credentials.js';
import { editHistoryPolicy, realmGroupSetting, realmIconUrl, realmSetting, realmTopicsPolicy, REALM_GROUP_SETTING_DEFAULTS, EMPTY_TOPIC_DISPLAY_NAME } from '../domain/realm.js';
import { LIMITS, ZULIP_FEATURE_LEVEL } from '../domain/versions.js';
import { MAX_REMINDER_NOTE_LENGTH } from '../domain/reminders.js';
import type { Services } from '../services.js';
import { recordNumber } from '../shared/record-number.js';
import { renderStamp } from './scheduled-render.js';
import { emojiDataFile } from './emoji-data.js';
import { formatName, maxUploadMib, THUMBNAIL_FORMATS, uploadQuotaMib } from '../domain/uploads.js';

const GIPHY_RATING_OPTIONS = {
  disabled: { name: 'GIPHY integration disabled', id: 0 },
  y: { name: 'Allow GIFs rated Y (Very young audience)', id: 1 },
  g: { name: 'Allow GIFs rated G (General audience)', id: 2 },
  pg: { name: 'Allow GIFs rated PG (Parental guidance)', id: 3 },
  'pg-13': { name: 'Allow GIFs rated PG-13 (Parental guidance - under 13)', id: 4 },
  r: { name: 'Allow GIFs rated R (Restricted)', id: 5 },
};

/** Legacy policy numbers derived from group settings, for older clients. */
function legacyPolicy(groupId: unknown, systemGroups: Record<string, number>, table: Record<string, number>, fallback: number): number {
  for (const [name, value] of Object.entries(table)) if (systemGroups[name] === groupId) return value;
  return fallback;
}

/** Fields the head of every register answer gives (actions/event-queues.ts): not repeated in the kept text. */
const IN_HEAD = ['zulip_feature_level', 'event_queue_longpoll_timeout_seconds'];

/**
 * The `realm` block as encoded text (a run of fields without braces): the same for every member,
 * so kept per organization while what it is made of holds (the realm record, replaced on every
 * change of a setting; the organization's address; the push notification state; the server
 * generation; and for the rendered description, what rendering reads: renderStamp and the
 * channels, which its channel links name).
 */
export function realmPart(services: Services, serverGeneration: number): Buffer {
  const { org } = services;
  const cache = services.readCaches.registerTexts;
  const push = realmPushState(services);
  const stamp = `${recordNumber(org.realm)}|${org.url}|${org.host}|${push.enabled}|${push.endTimestamp}|${serverGeneration}|${renderStamp(services)}|${org.channels.version}`;
  const kept = cache.texts.get('realm');
  if (kept !== undefined && kept.stamp === stamp) {
    cache.counts.reused++;
    return kept.json;
  }
  const state = realmState(services, serverGeneration);
  for (const key of IN_HEAD) delete state[key];
  const json = Buffer.from(JSON.stringify(state).slice(1, -1));
  cache.texts.set('realm', { stamp, json });
  cache.counts.built++;
  return json;
}

export function realmState(services: Services, serverGeneration: number): Record<string, unknown> {
  const realm = services.org.realm;
  const groups = realm.systemGroups as Record<string, number>;
  const state: Record<string, unknown> = { ...realmFields(services), ...serverFields(services, serverGeneration) };
  for (const key of Object.keys(REALM_GROUP_SETTING_DEFAULTS)) state[`realm_${key}`] = realmGroupSetting(realm, key);
  state.realm_create_public_stream_policy = legacyPolicy(state.realm_can_create_public_channel_group, groups, { 'role:members': 1, 'role:administrators': 2, 'role:fullmembers': 3, 'role:moderators': 4 }, 1);
  state.realm_create_private_stream_policy = legacyPolicy(state.realm_can_create_private_channel_group, groups, { 'role:members': 1, 'role:administrators': 2, 'role:fullmembers': 3, 'role:moderators': 4 }, 1);
  state.realm_create_web_public_stream_policy = legacyPolicy(state.realm_can_create_web_public_channel_group, groups, { 'role:owners': 7, 'role:administrators': 2, 'role:moderators': 4, 'role:nobody': 6 }, 4);
  state.realm_wildcard_mention_policy = legacyPolicy(state.realm_can_mention_many_users_group, groups, { 'role:everyone': 1, 'role:members': 2, 'role:fullmembers': 3, 'role:administrators': 5, 'role:nobody': 6, 'role:moderators': 7 }, 1);
  return state;
}

/** The organization's own fields (`realm_…`), its group settings aside. */
function realmFields(services: Services): Record<string, unknown> {
  const { org } = services;
  const realm = org.realm;
  const setting = <K extends string>(key: K) => realmSetting(realm, key);
  return {
    realm_name: realm.name,
    // Rendered, as Zulip's get_realm_rendered_description (the `realm` events carry the Markdown).
    realm_description: services.render(realm.description || 'The coolest place in the universe.').html,
    realm_default_language: setting('default_language'),
    realm_allow_message_editing: setting('allow_message_editing'),
    realm_message_content_edit_limit_seconds: setting('message_content_edit_limit_seconds'),
    realm_message_content_delete_limit_seconds: setting('message_content_delete_limit_seconds'),
    realm_move_messages_within_stream_limit_seconds: setting('move_messages_within_stream_limit_seconds'),
    realm_move_messages_between_streams_limit_seconds: setting('move_messages_between_streams_limit_seconds'),
    realm_allow_edit_history: setting('allow_edit_history'),
    realm_message_edit_history_visibility_policy: editHistoryPolicy(realm),
    realm_mandatory_topics: setting('mandatory_topics'),
    realm_topics_policy: realmTopicsPolicy(realm),
    realm_empty_topic_display_name: EMPTY_TOPIC_DISPLAY_NAME,
    realm_waiting_period_threshold: setting('waiting_period_threshold'),
    realm_message_retention_days: setting('message_retention_days'),
    realm_invite_required: setting('invite_required'),
    realm_emails_restricted_to_domains: setting('emails_restricted_to_domains'),
    realm_disallow_disposable_email_addresses: setting('disallow_disposable_email_addresses'),
    realm_email_changes_disabled: setting('email_changes_disabled'),
    realm_name_changes_disabled: setting('name_changes_disabled'),
    realm_avatar_changes_disabled: setting('avatar_changes_disabled'),
    realm_require_unique_names: setting('require_unique_names'),
    realm_inline_image_preview: setting('inline_image_preview'),
    realm_inline_url_embed_preview: setting('inline_url_embed_preview'),
    realm_digest_emails_enabled: setting('digest_emails_enabled'),
    realm_digest_weekday: setting('digest_weekday'),
    realm_send_welcome_emails: setting('send_welcome_emails'),
    realm_message_content_allowed_in_email_notifications: setting('message_content_allowed_in_email_notifications'),
    realm_enable_spectator_access: setting('enable_spectator_access'),
    realm_want_advertise_in_communities_directory: setting('want_advertise_in_communities_directory'),
    realm_enable_read_receipts: setting('enable_read_receipts'),
    realm_enable_guest_user_indicator: setting('enable_guest_user_indicator'),
    realm_enable_guest_user_dm_warning: setting('enable_guest_user_dm_warning'),
    realm_video_chat_provider: setting('video_chat_provider'),
    realm_jitsi_server_url: setting('jitsi_server_url'),
    realm_giphy_rating: setting('giphy_rating'),
    realm_default_code_block_language: setting('default_code_block_language'),
    realm_push_notifications_enabled: realmPushState(services).enabled,
    realm_push_notifications_enabled_end_timestamp: realmPushState(services).endTimestamp,
    realm_require_e2ee_push_notifications: setting('require_e2ee_push_notifications'),
    realm_welcome_message_custom_text: setting('welcome_message_custom_text'),
    realm_is_zephyr_mirror_realm: false,
    realm_authentication_methods: { Email: { enabled: true, available: true } },
    realm_icon_url: realmIconUrl(realm.subdomain),
    realm_icon_source: 'G',
    realm_logo_url: '/static/images/logo/zulip-org-logo.svg?version=0',
    realm_logo_source: 'D',
    realm_night_logo_url: '/static/images/logo/zulip-org-logo.svg?version=0',
    realm_night_logo_source: 'D',
    realm_url: org.url,
    realm_uri: org.url,
    realm_bot_domain: org.host,
    realm_available_video_chat_providers: { disabled: { name: 'None', id: 0 }, jitsi_meet: { name: 'Jitsi Meet', id: 1 } },
    realm_presence_disabled: false,
    realm_email_auth_enabled: true,
    realm_password_auth_enabled: true,
    realm_upload_quota_mib: uploadQuotaMib(realm),
    realm_org_type: setting('org_type'),
    realm_plan_type: 1,
    realm_date_created: realm.dateCreated,
    realm_default_external_accounts: {},
    realm_new_stream_announcements_stream_id: setting('new_stream_announcements_stream_id'),
    realm_signup_announcements_stream_id: setting('signup_announcements_stream_id'),
    realm_zulip_update_announcements_stream_id: setting('zulip_update_announcements_stream_id'),
    realm_moderation_request_channel_id: setting('moderation_request_channel_id'),
  };
}

/** The server's limits and fixed answers (`max_…`, `server_…`). */
function serverFields(services: Services, serverGeneration: number): Record<string, unknown> {
  const { org } = services;
  const realm = org.realm;
  return {
    max_message_length: LIMITS.maxMessageLength,
    max_topic_length: LIMITS.maxTopicLength,
    max_stream_name_length: LIMITS.maxStreamNameLength,
    max_stream_description_length: LIMITS.maxStreamDescriptionLength,
    max_channel_folder_name_length: 60,
    max_channel_folder_description_length: 1024,
    max_bulk_new_subscription_messages: 100,
    max_reminder_note_length: MAX_REMINDER_NOTE_LENGTH,
    max_file_upload_size_mib: maxUploadMib(realm),
    max_avatar_file_size_mib: 5,
    max_icon_file_size_mib: 5,
    max_logo_file_size_mib: 5,
    password_min_length: MIN_PASSWORD_LENGTH,
    password_max_length: 100,
    password_min_guesses: 10000,
    server_presence_ping_interval_seconds: 60,
    server_presence_offline_threshold_seconds: 140,
    server_typing_started_expiry_period_milliseconds: 45000,
    server_typing_stopped_wait_period_milliseconds: 12000,
    server_typing_started_wait_period_milliseconds: 30000,
    event_queue_longpoll_timeout_seconds: LIMITS.eventQueueLongpollTimeoutSeconds,
    server_inline_image_preview: true,
    server_inline_url_embed_preview: true,
    server_avatar_changes_disabled: false,
    server_name_changes_disabled: false,
    server_web_public_streams_enabled: false,
    server_needs_upgrade: false,
    server_jitsi_server_url: 'https://meet.jit.si',
    jitsi_server_url: 'https://meet.jit.si',
    server_can_summarize_topics: false,
    server_min_deactivated_realm_deletion_days: 14,
    server_max_deactivated_realm_deletion_days: null,
    server_generation: serverGeneration,
    server_emoji_data_url: org.url + emojiDataFile().path,
    server_thumbnail_formats: THUMBNAIL_FORMATS.map((format) => ({
      name: formatName(format), max_width: format.maxWidth, max_height: format.maxHeight, format: format.extension, animated: format.animated,
    })),
    server_supported_permission_settings: {},
    development_environment: false,
    settings_send_digest_emails: true,
    zulip_plan_is_not_limited: true,
    giphy_rating_options: GIPHY_RATING_OPTIONS,
    zulip_feature_level: ZULIP_FEATURE_LEVEL,
  };
}
