/** What the client asks POST /register for, and the channels it reads from the answer. */
import type { Registration } from '../state/event-queue.js';

/**
 * What the client registers for: rendered HTML, Gravatar URLs computed here (`client_gravatar`),
 * avatar URLs the server may leave out (`user_avatar_url_field_optional`), slim presence, no
 * subscriber lists, and the state of only the event types it shows (`fetch_event_types` limits the
 * answer, not the events: a member of a large organization was sent 700 KB, most of it unused).
 * Channels come from `subscription` (subscribed, unsubscribed, never subscribed), as in Zulip's web app.
 */
export const REGISTER_FETCH_EVENT_TYPES = [
  'realm', 'realm_user', 'realm_emoji', 'subscription', 'message', 'update_message_flags', 'user_topic',
  'presence', 'recent_private_conversations', 'drafts', 'scheduled_messages', 'user_settings',
];
export const REGISTER_PARAMS = {
  apply_markdown: true,
  client_gravatar: true,
  slim_presence: true,
  include_subscribers: false,
  fetch_event_types: REGISTER_FETCH_EVENT_TYPES,
  client_capabilities: { notification_settings_null: true, bulk_message_deletion: true, user_avatar_url_field_optional: true, stream_typing_notifications: true, user_settings_object: true, empty_topic_name: true },
};

export interface ChannelInfo {
  stream_id: number;
  name: string;
  description: string;
  invite_only: boolean;
}

/** Every channel the user can see: subscribed, unsubscribed and never subscribed (no `streams` asked for). */
export function channelsOf(r: Registration): ChannelInfo[] {
  const lists = [r.subscriptions, r.unsubscribed, r.never_subscribed] as (ChannelInfo[] | undefined)[];
  return lists.flatMap((list) => list ?? []).map((c) => ({ stream_id: c.stream_id, name: c.name, description: c.description ?? '', invite_only: c.invite_only }));
}
