/** Finding a channel on behalf of a user, with Zulip's errors when it is missing or out of reach. */
import { canAccessContent, canAccessHistory, canSeeChannel, type ChannelRecord } from '../domain/channel-record.js';
import { badRequest } from '../domain/errors.js';
import { isAdmin } from '../domain/roles.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';

export function channelVisible(services: Services, user: UserRecord, channel: ChannelRecord): boolean {
  return canSeeChannel(user, channel, services.subscriptions.isSubscribed(user.id, channel.id), isAdmin(user.role));
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
  if (!channel || !channelReadable(services, user, channel)) throw badRequest('Invalid channel ID');
  return channel;
}

/** A channel the user may know of (metadata access); otherwise `Invalid channel ID`. */
export function seeChannelById(services: Services, user: UserRecord, channelId: number): ChannelRecord {
  const channel = services.org.channels.get(channelId);
  if (!channel || !channelVisible(services, user, channel)) throw badRequest('Invalid channel ID');
  return channel;
}

/** Active users who can see that the channel exists: receivers of its `stream` events. */
export function usersWhoSeeChannel(services: Services, channel: ChannelRecord): number[] {
  const ids: number[] = [];
  for (const user of services.org.users.all()) {
    if (user.isActive && !user.isSystemBot && channelVisible(services, user, channel)) ids.push(user.id);
  }
  return ids;
}
