/** Channels as GET /streams, /get_stream_id and /users/me/{id}/topics list them for one user. */
import { badRequest } from '../domain/errors.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../domain/realm.js';
import { isAdmin, isGuest } from '../domain/roles.js';
import { displayTopic } from '../domain/topics.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import { accessChannelById, channelHistoryReadable, channelVisible } from './channel-access.js';
import { byName, channelObject } from './subscription-format.js';
import { receivedTopics } from './topics.js';

/** Which channels GET /streams includes (its parameters). */
export interface ChannelListOptions {
  include_public: boolean;
  include_web_public: boolean;
  include_subscribed: boolean;
  include_all?: boolean;
  include_all_active?: boolean;
  include_default: boolean;
  exclude_archived: boolean;
}

/** The channels `user` asked for, as objects, by name. */
export function listChannels(services: Services, user: UserRecord, p: ChannelListOptions): Record<string, unknown>[] {
  const includeAll = p.include_all || p.include_all_active;
  const result: Record<string, unknown>[] = [];
  for (const channel of services.org.channels.all()) {
    if (p.exclude_archived && channel.isArchived) continue;
    const subscribed = services.subscriptions.isSubscribed(user.id, channel.id);
    const wanted =
      (p.include_public && !channel.inviteOnly && !isGuest(user.role)) ||
      (p.include_web_public && channel.isWebPublic) ||
      (p.include_subscribed && subscribed) ||
      (includeAll && (channelVisible(services, user, channel) || isAdmin(user.role))) ||
      (p.include_default && channel.isDefault && !isGuest(user.role));
    if (!wanted) continue;
    const object = channelObject(services, channel);
    if (p.include_default) object.is_default = channel.isDefault;
    result.push(object);
  }
  return result.sort(byName);
}

/** The id of the channel named `name`, if `user` may see it (archived channels are not found). */
export function channelIdByName(services: Services, user: UserRecord, name: string): number {
  const channel = services.org.channels.byName(name.trim());
  if (!channel || channel.isArchived || !channelVisible(services, user, channel)) throw badRequest(`Invalid channel name '${name}'`);
  return channel.id;
}

/** The channel's topics `user` may know, newest first: all of them with readable history, else those of messages received. */
export async function channelTopicList(services: Services, user: UserRecord, channelId: number, allowEmpty: boolean) {
  const channel = accessChannelById(services, user, channelId);
  const topics = channelHistoryReadable(services, user, channel)
    ? await services.messages.topics(channel.id)
    : await receivedTopics(services, user.id, channel.id);
  return topics
    .sort((a, b) => b.maxId - a.maxId)
    .map((topic) => ({ name: displayTopic(topic.name, allowEmpty, EMPTY_TOPIC_DISPLAY_NAME), max_id: topic.maxId }));
}
