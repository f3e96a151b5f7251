/** Finding a channel on behalf of a user, with Zulip's errors when it is missing or out of reach. */
import { knowsChannel, mayKnowChannel, mayPostToChannel, mayReadChannel, refusalError } from '../domain/permissions.js';
import { canAccessContent, canAccessHistory, type ChannelRecord } from '../domain/channel-record.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';

export function channelVisible(services: Services, user: UserRecord, channel: ChannelRecord): boolean {
  // Most channels are known without a subscription: the channel's subscriber set (a big one, far
  // from the cache when a register walks every channel) is read only when the answer turns on it.
  return knowsChannel(user, channel, false) || knowsChannel(user, channel, services.subscriptions.isSubscribed(user.id, channel.id));
}

export function channelReadable(services: Services, user: UserRecord, channel: ChannelRecord): boolean {
  return canAccessContent(user, channel, services.subscriptions.isSubscribed(user.id, channel.id));
}

export function channelHistoryReadable(services: Services, user: UserRecord, channel: ChannelRecord): boolean {
  return canAccessHistory(user, channel, services.subscriptions.isSubscribed(user.id, channel.id));
}

/** A channel whose content the user may read; otherwise `Invalid channel ID`. */
export function accessChannelById(services: Services, user: UserRecord, channelId: number): ChannelRecord {
  const channel = services.org.channels.get(channelId);
  const refusal = mayReadChannel(user, channel, channel !== undefined && services.subscriptions.isSubscribed(user.id, channel.id));
  if (refusal) throw refusalError(refusal);
  return channel!;
}

/** A channel the user may know of (metadata access); otherwise `Invalid channel ID`. */
export function seeChannelById(services: Services, user: UserRecord, channelId: number): ChannelRecord {
  const channel = services.org.channels.get(channelId);
  const refusal = mayKnowChannel(user, channel, channel !== undefined && services.subscriptions.isSubscribed(user.id, channel.id));
  if (refusal) throw refusalError(refusal);
  return channel!;
}

/** Active users who can see that the channel exists: receivers of its `stream` events. */
export function usersWhoSeeChannel(services: Services, channel: ChannelRecord): number[] {
  const ids: number[] = [];
  for (const user of services.org.users.all()) {
    if (user.isActive && !user.isSystemBot && channelVisible(services, user, channel)) ids.push(user.id);
  }
  return ids;
}

/** Zulip's access_stream_for_send_message. */
export function checkMaySendToChannel(services: Services, sender: UserRecord, channel: ChannelRecord): void {
  const { subscriptions } = services;
  const refusal = mayPostToChannel(sender, channel, services.org.groups, {
    subscribed: subscriptions.isSubscribed(sender.id, channel.id),
    ownerSubscribed: sender.botOwnerId !== null && subscriptions.isSubscribed(sender.botOwnerId, channel.id),
  });
  if (refusal) throw refusalError(refusal);
}
