/** The demo organization's channel ids and the fields Zulip's channel and subscription objects carry. */

export { GENERAL, VERONA, DENMARK, SCOTLAND, CORE_TEAM, MODERATION } from './demo-ids.js';

export const STREAM_FIELDS = [
  'can_add_subscribers_group', 'can_administer_channel_group', 'can_delete_any_message_group',
  'can_delete_own_message_group', 'can_move_messages_out_of_channel_group', 'can_move_messages_within_channel_group',
  'can_remove_subscribers_group', 'can_resolve_topics_group', 'can_send_message_group', 'can_subscribe_group',
  'creator_id', 'date_created', 'description', 'first_message_id', 'folder_id', 'history_public_to_subscribers',
  'invite_only', 'is_announcement_only', 'is_archived', 'is_recently_active', 'is_web_public', 'message_retention_days',
  'name', 'rendered_description', 'stream_id', 'stream_post_policy', 'stream_weekly_traffic', 'subscriber_count',
  'topics_policy',
];
export const SUBSCRIPTION_FIELDS = [
  ...STREAM_FIELDS, 'audible_notifications', 'color', 'desktop_notifications', 'email_notifications', 'in_home_view',
  'is_muted', 'pin_to_top', 'push_notifications', 'wildcard_mentions_notify',
];
/** Zulip also sends this one (default: everyone); Parley's channel records do not have it yet. */
/** Added at feature level 441, after the level Parley reports (416): it must not be sent. */
export const MISSING_SETTING = 'can_create_topic_group';

export const names = (list: { name: string }[]) => list.map((s) => s.name);
