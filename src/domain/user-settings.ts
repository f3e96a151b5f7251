/** Personal settings: their defaults, their rules, and which ones older clients receive at the top level of /register. */
import { badRequest } from './errors.js';
import type { UserRecord } from './users.js';

export const USER_SETTING_DEFAULTS: Record<string, unknown> = {
  // Display
  twenty_four_hour_time: false,
  web_mark_read_on_scroll_policy: 1,
  web_channel_default_view: 1,
  starred_message_counts: true,
  receives_typing_notifications: true,
  fluid_layout_width: false,
  high_contrast_mode: false,
  web_font_size_px: 16,
  web_line_height_percent: 122,
  color_scheme: 1,
  translate_emoticons: false,
  display_emoji_reaction_users: true,
  default_language: 'en',
  web_home_view: 'inbox',
  web_escape_navigates_to_home_view: true,
  left_side_userlist: false,
  emojiset: 'google',
  demote_inactive_streams: 1,
  user_list_style: 2,
  web_animate_image_previews: 'on_hover',
  web_stream_unreads_count_display_policy: 2,
  web_left_sidebar_unreads_count_summary: true,
  web_left_sidebar_show_channel_folders: true,
  hide_ai_features: false,
  web_suggest_update_timezone: true,
  timezone: '',
  enter_sends: false,
  // Notifications
  enable_stream_desktop_notifications: false,
  enable_stream_email_notifications: false,
  enable_stream_push_notifications: false,
  enable_stream_audible_notifications: false,
  notification_sound: 'zulip',
  enable_desktop_notifications: true,
  enable_sounds: true,
  email_notifications_batching_period_seconds: 120,
  enable_offline_email_notifications: true,
  enable_offline_push_notifications: true,
  enable_online_push_notifications: true,
  enable_followed_topic_desktop_notifications: true,
  enable_followed_topic_email_notifications: true,
  enable_followed_topic_push_notifications: true,
  enable_followed_topic_audible_notifications: true,
  enable_followed_topic_wildcard_mentions_notify: true,
  enable_digest_emails: true,
  enable_marketing_emails: true,
  enable_login_emails: true,
  message_content_in_email_notifications: true,
  pm_content_in_desktop_notifications: true,
  wildcard_mentions_notify: true,
  desktop_icon_count_display: 1,
  realm_name_in_email_notifications_policy: 1,
  automatically_follow_topics_policy: 3,
  automatically_unmute_topics_in_muted_streams_policy: 2,
  automatically_follow_topics_where_mentioned: true,
  presence_enabled: true,
  // Privacy
  send_private_typing_notifications: true,
  send_stream_typing_notifications: true,
  send_read_receipts: true,
  enable_drafts_synchronization: true,
  allow_private_data_export: false,
  email_address_visibility: 1,
  web_navigate_to_sent_message: true,
  resolved_topic_notice_auto_read_policy: 'except_followed',
};

/** Keys older clients (without the `user_settings_object` capability) get at the top level. */
export const LEGACY_DISPLAY_SETTINGS = [
  'color_scheme', 'default_language', 'web_home_view', 'demote_inactive_streams', 'emojiset', 'enable_drafts_synchronization',
  'enter_sends', 'fluid_layout_width', 'high_contrast_mode', 'left_side_userlist', 'starred_message_counts',
  'translate_emoticons', 'twenty_four_hour_time', 'timezone',
];

export const LEGACY_NOTIFICATION_SETTINGS = [
  'desktop_icon_count_display', 'email_notifications_batching_period_seconds', 'enable_desktop_notifications',
  'enable_digest_emails', 'enable_login_emails', 'enable_marketing_emails', 'enable_offline_email_notifications',
  'enable_offline_push_notifications', 'enable_online_push_notifications', 'enable_sounds', 'enable_stream_audible_notifications',
  'enable_stream_desktop_notifications', 'enable_stream_email_notifications', 'enable_stream_push_notifications',
  'message_content_in_email_notifications', 'notification_sound', 'pm_content_in_desktop_notifications', 'presence_enabled',
  'realm_name_in_email_notifications_policy', 'wildcard_mentions_notify',
];

export const EMOJISET_CHOICES = [
  { key: 'google', text: 'Google' },
  { key: 'twitter', text: 'Twitter' },
  { key: 'text', text: 'Plain text' },
];

export const AVAILABLE_NOTIFICATION_SOUNDS = ['chime-saber', 'ding', 'zulip'];

/** Every setting of a user: the stored ones over the defaults; time zone and email visibility live on the record itself. */
export function userSettings(user: Pick<UserRecord, 'settings' | 'timezone' | 'emailAddressVisibility'>): Record<string, unknown> {
  return { ...USER_SETTING_DEFAULTS, ...user.settings, timezone: user.timezone, email_address_visibility: user.emailAddressVisibility };
}

/** A setting's value for the user: the stored one, else the default (settings are stored only where they differ). */
export function settingValue(user: Pick<UserRecord, 'settings'>, name: string): unknown {
  return name in user.settings ? user.settings[name] : USER_SETTING_DEFAULTS[name];
}

/**
 * Is a yes-or-no setting on for the user? Settings are stored only where they differ from the
 * defaults, so this reads the stored value, else the default (every such setting defaults to on
 * but the ones the table says otherwise).
 */
export function settingOn(user: Pick<UserRecord, 'settings'>, name: string): boolean {
  return (settingValue(user, name) ?? true) !== false;
}

/** Language codes a user may choose (Zulip's translations), with the names `default_language` events carry. */
export const LANGUAGE_NAMES: Readonly<Record<string, string>> = Object.freeze(Object.assign(Object.create(null) as Record<string, string>, {
  ar: 'العربية', be: 'Беларуская', bg: 'Български', bn: 'বাংলা', ca: 'Català', cs: 'Čeština', cy: 'Cymraeg', da: 'Dansk',
  de: 'Deutsch', el: 'Ελληνικά', en: 'English', 'en-gb': 'British English', eo: 'Esperanto', es: 'Español', fa: 'فارسی',
  fi: 'Suomi', fr: 'Français', gl: 'Galego', gu: 'ગુજરાતી', hi: 'हिंदी', hu: 'Magyar', id: 'Bahasa Indonesia', it: 'Italiano',
  ja: '日本語', ko: '한국어', lt: 'Lietuvių', lmo: 'Lombard', ml: 'മലയാളം', mn: 'Монгол', nl: 'Nederlands', no: 'Norsk',
  pl: 'Polski', pt: 'Português', 'pt-br': 'Português Brasileiro', 'pt-pt': 'Português Europeu', ro: 'Română', ru: 'Русский',
  si: 'සිංහල', sk: 'Slovenčina', sr: 'Српски', sv: 'Svenska', ta: 'தமிழ்', te: 'తెలుగు', tl: 'Tagalog', tr: 'Türkçe',
  uk: 'Українська', uz: 'O‘zbek', vi: 'Tiếng Việt', 'zh-hans': '简体中文', 'zh-hant': '繁體中文',
}));

/** `web_home_view` values at this feature level. */
const HOME_VIEWS = new Set(['recent_topics', 'inbox', 'all_messages']);
const MAX_EMAIL_BATCHING_SECONDS = 7 * 24 * 60 * 60;

/**
 * Whether the runtime knows the IANA zone (or alias). The runtime also takes names in any case;
 * Zulip's list is exact, and every segment of its names starts with a capital.
 */
function isTimeZone(name: string): boolean {
  if (name === '' || !name.split('/').every((segment) => /^[A-Z]/.test(segment))) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * Zulip's checks of setting values beyond their types and enums (which the endpoint's schema
 * checks): sounds, languages, time zones, emoji sets, home views, the batching period.
 */
export function checkSettingValue(name: string, value: unknown): void {
  switch (name) {
    case 'default_language':
      if (!(String(value) in LANGUAGE_NAMES)) throw badRequest('Invalid default_language');
      return;
    case 'notification_sound':
      if (value !== 'none' && !AVAILABLE_NOTIFICATION_SOUNDS.includes(String(value))) throw badRequest(`Invalid notification sound '${String(value)}'`);
      return;
    case 'email_notifications_batching_period_seconds': {
      const seconds = value as number;
      if (seconds <= 0 || seconds > MAX_EMAIL_BATCHING_SECONDS) throw badRequest(`Invalid email batching period: ${seconds} seconds`);
      return;
    }
    case 'timezone':
      if (!isTimeZone(String(value))) throw badRequest('timezone is not a recognized time zone');
      return;
    case 'emojiset':
      if (!EMOJISET_CHOICES.some((choice) => choice.key === value)) throw badRequest('Invalid emojiset');
      return;
    case 'web_home_view':
      if (!HOME_VIEWS.has(String(value))) throw badRequest('Invalid web_home_view');
      return;
  }
}

/** The settings a new user starts with: Zulip's defaults, as the organization changed them (its time zone is the user's own). */
export function realmUserSettingsDefaults(overrides: Readonly<Record<string, unknown>> | undefined): Record<string, unknown> {
  const { timezone: _timezone, ...defaults } = USER_SETTING_DEFAULTS;
  return { ...defaults, ...overrides };
}
