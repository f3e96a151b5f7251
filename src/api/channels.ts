/** Reading channels: `GET /streams`, `GET /streams/{id}`, `GET /get_stream_id`, `GET /users/me/{id}/topics`. */
import { badRequest } from '../domain/errors.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../domain/realm.js';
import { isAdmin, isGuest } from '../domain/roles.js';
import { displayTopic } from '../domain/topics.js';
import type { Services } from '../services.js';
import { receivedTopics } from '../queries/topics.js';
import { accessChannelById, channelHistoryReadable, channelVisible, seeChannelById } from '../queries/channel-access.js';
import * as schemas from '../../schemas/index.js';
import { me, type Request } from './route.js';
import { byName, channelObject } from '../queries/subscription-format.js';

/** GET /streams */
export function getStreams(services: Services, request: Request<typeof schemas.getStreams>) {
  const { org } = services;
  const user = me(request);
  const p = request.params;
  const includeAll = p.include_all || p.include_all_active;
  const result: Record<string, unknown>[] = [];
  for (const channel of org.channels.all()) {
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
  return { streams: result.sort(byName) };
}

/** GET /streams/{stream_id:int} */
export function getStreamById(services: Services, request: Request<typeof schemas.getStreamById, { stream_id: number }>) {
  return ({ stream: channelObject(services, seeChannelById(services, me(request), request.params.stream_id)) });
}

/** GET /get_stream_id */
export function getStreamId(services: Services, request: Request<typeof schemas.getStreamId>) {
  const { org } = services;
  const name = request.params.stream;
  const channel = org.channels.byName(name.trim());
  if (!channel || channel.isArchived || !channelVisible(services, me(request), channel)) throw badRequest(`Invalid channel name '${name}'`);
  return { stream_id: channel.id };
}

/** GET /users/me/{stream_id:int}/topics */
export async function getStreamTopics(services: Services, request: Request<typeof schemas.getStreamTopics, { stream_id: number }>) {
  const user = me(request);
  const channel = accessChannelById(services, user, request.params.stream_id);
  const topics = channelHistoryReadable(services, user, channel)
    ? await services.messages.topics(channel.id)
    : await receivedTopics(services, user.id, channel.id);
  const allowEmpty = request.params.allow_empty_topic_name;
  return {
    topics: topics
      .sort((a, b) => b.maxId - a.maxId)
      .map((topic) => ({ name: displayTopic(topic.name, allowEmpty, EMPTY_TOPIC_DISPLAY_NAME), max_id: topic.maxId })),
  };
}

