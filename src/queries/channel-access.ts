/** Finding a channel on behalf of a user, with Zulip's errors when it is missing or out of reach. */
import { canAccessContent, canAccessHistory, canSeeChannel, type ChannelRecord } from '../domain/channel-record.js';
import { badRequest } from '../domain/errors.js';
import { isAdmin } from '../domain/roles.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import { settingIncludes } from '../domain/groups.js';
import { isGuest } from '../domain/roles.js';

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

/** Zulip's access_stream_for_send_message. */
export function checkMaySendToChannel(services: Services, sender: UserRecord, channel: ChannelRecord): void {
  const { org, subscriptions } = services;
  const sendGroup = channel.settings.can_send_message_group;
  if (sendGroup !== undefined && !settingIncludes(sender.id, sendGroup, org.groups)) {
    const owner = sender.botOwnerId === null ? undefined : sender.botOwnerId;
    if (owner === undefined || !settingIncludes(owner, sendGroup, org.groups)) throw badRequest('You do not have permission to post in this channel.');
  }
  const refused = () => badRequest(`Not authorized to send to channel '${channel.name}'`);
  if (channel.isArchived) throw refused();
  if (sender.isSystemBot) return;
  if (channel.isWebPublic) return;
  if (!channel.inviteOnly && !isGuest(sender.role)) return;
  if (subscriptions.isSubscribed(sender.id, channel.id)) return;
  if (sender.botOwnerId !== null && subscriptions.isSubscribed(sender.botOwnerId, channel.id)) return;
  throw refused();
}
