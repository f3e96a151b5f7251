/**
 * Reads about a channel's members, for those who know the channel (Zulip's access_stream_by_id
 * without content access): its subscribers, whether one user is subscribed, its email address.
 */
import type { ChannelRecord } from '../domain/channel-record.js';
import { badRequest } from '../domain/errors.js';
import { isAdmin } from '../domain/roles.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import { seeChannelById } from './channel-access.js';

/** An active channel the viewer knows of; an archived one is answered as an unknown one. */
function knownActiveChannel(services: Services, viewer: UserRecord, channelId: number): ChannelRecord {
  const channel = seeChannelById(services, viewer, channelId);
  if (channel.isArchived) throw badRequest('Invalid channel ID');
  return channel;
}

/** `GET /streams/{id}/members`: the active subscribers, by id. */
export function channelMembers(services: Services, viewer: UserRecord, channelId: number): number[] {
  const channel = knownActiveChannel(services, viewer, channelId);
  return [...services.subscriptions.subscribersOf(channel.id)].sort((a, b) => a - b);
}

/** `GET /users/{user_id}/subscriptions/{stream_id}` (Zulip's access_user_by_id: no bots, no deactivated users). */
export function subscriptionStatus(services: Services, viewer: UserRecord, userId: number, channelId: number): boolean {
  const target = services.org.users.get(userId);
  if (!target || target.isBot || target.isSystemBot) throw badRequest('No such user');
  if (!target.isActive) throw badRequest('User is deactivated');
  const channel = knownActiveChannel(services, viewer, channelId);
  return services.subscriptions.isSubscribed(target.id, channel.id);
}

/**
 * `GET /streams/{id}/email_address`: this server runs no email gateway, so, as Zulip without
 * `EMAIL_GATEWAY_PATTERN`, the address is empty. The sender asked for must still be the caller
 * or a bot the caller may act for.
 */
export function channelEmailAddress(services: Services, viewer: UserRecord, channelId: number, senderId: number | undefined): string {
  knownActiveChannel(services, viewer, channelId);
  if (senderId !== undefined && senderId !== viewer.id) {
    const bot = services.org.users.get(senderId);
    if (!bot || !bot.isBot || bot.isSystemBot || !bot.isActive) throw badRequest('No such bot');
    if (bot.botOwnerId !== viewer.id && !isAdmin(viewer.role)) throw badRequest('Insufficient permission');
  }
  return '';
}

/** The default channels' ids, in id order: register's `realm_default_streams` and the `default_streams` event's list. */
export function defaultChannelIds(services: Services): number[] {
  return [...services.org.channels.all()].filter((channel) => channel.isDefault).map((channel) => channel.id).sort((a, b) => a - b);
}
