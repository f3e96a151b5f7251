/** The subscription and channel objects of the API, as one user sees them. */
import type { SubscriptionState } from '../actors/subscriptions.js';
import { formatChannel, type ChannelRecord } from '../domain/channel-record.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import { channelReadable } from './channel-access.js';

/** The user's global stream notification settings that a `null` per-channel setting follows. */
const GLOBAL_STREAM_NOTIFICATIONS = {
  desktop_notifications: 'enable_stream_desktop_notifications',
  audible_notifications: 'enable_stream_audible_notifications',
  push_notifications: 'enable_stream_push_notifications',
  email_notifications: 'enable_stream_email_notifications',
  wildcard_mentions_notify: 'wildcard_mentions_notify',
} as const;

const GLOBAL_DEFAULTS: Record<string, boolean> = {
  enable_stream_desktop_notifications: false,
  enable_stream_audible_notifications: false,
  enable_stream_push_notifications: false,
  enable_stream_email_notifications: false,
  wildcard_mentions_notify: true,
};

export interface SubscriptionFormat {
  includeSubscribers: boolean;
  /** The channel's subscribers when already computed (bulk subscribing shares one list). */
  subscribers?: number[];
  /** Send `null` for notification settings that follow the global ones (client capability). */
  notificationSettingsNull: boolean;
}

export function channelObject(services: Services, channel: ChannelRecord): Record<string, unknown> {
  return formatChannel(channel, services.subscriptions.subscribersOf(channel.id).size, services.org.realm.systemGroups);
}

/** Subscriber ids the viewer may see (none for a private channel whose content they cannot read). */
export function visibleSubscribers(services: Services, viewer: UserRecord, channel: ChannelRecord): number[] {
  if (!channelReadable(services, viewer, channel)) return [];
  return [...services.subscriptions.subscribersOf(channel.id)].sort((a, b) => a - b);
}

export function subscriptionObject(
  services: Services,
  user: UserRecord,
  channel: ChannelRecord,
  state: SubscriptionState,
  format: SubscriptionFormat,
): Record<string, unknown> {
  const settings = user.settings as Record<string, unknown>;
  const personal = (key: keyof typeof GLOBAL_STREAM_NOTIFICATIONS, value: boolean | null) => {
    if (value !== null || format.notificationSettingsNull) return value;
    const global = GLOBAL_STREAM_NOTIFICATIONS[key];
    return (settings[global] as boolean | undefined) ?? GLOBAL_DEFAULTS[global];
  };
  // The channel's fresh object, added to: a spread followed by more fields took V8's slow path
  // (tens of µs per object; a POST /register makes one per subscription).
  const object = channelObject(services, channel);
  object.color = state.color;
  object.is_muted = state.isMuted;
  object.in_home_view = !state.isMuted;
  object.pin_to_top = state.pinToTop;
  object.desktop_notifications = personal('desktop_notifications', state.desktopNotifications);
  object.audible_notifications = personal('audible_notifications', state.audibleNotifications);
  object.push_notifications = personal('push_notifications', state.pushNotifications);
  object.email_notifications = personal('email_notifications', state.emailNotifications);
  object.wildcard_mentions_notify = personal('wildcard_mentions_notify', state.wildcardMentionsNotify);
  if (format.includeSubscribers) object.subscribers = format.subscribers ?? visibleSubscribers(services, user, channel);
  return object;
}

/** Zulip sorts channels by name as Python compares strings: by code point, so capitals come first. */
export const byName = (a: Record<string, unknown>, b: Record<string, unknown>) => {
  const x = String(a.name);
  const y = String(b.name);
  return x < y ? -1 : x > y ? 1 : 0;
};

/** The user's active subscriptions, sorted by channel name. */
export function activeSubscriptions(services: Services, user: UserRecord, format: SubscriptionFormat): Record<string, unknown>[] {
  const result: Record<string, unknown>[] = [];
  for (const [channelId, state] of Object.entries(services.subscriptions.channelsOf(user.id))) {
    if (!state.active) continue;
    const channel = services.org.channels.get(Number(channelId));
    if (channel) result.push(subscriptionObject(services, user, channel, state, format));
  }
  return result.sort(byName);
}
