/** Reading channels: `GET /streams`, `GET /streams/{id}`, `GET /get_stream_id`, `GET /users/me/{id}/topics`. */
import type { Services } from '../services.js';
import { seeChannelById } from '../queries/channel-access.js';
import { channelIdByName, channelTopicList, listChannels } from '../queries/channel-list.js';
import * as schemas from '../../schemas/index.js';
import { me, type Request } from './route.js';
import { channelObject } from '../queries/subscription-format.js';

/** GET /streams */
export function getStreams(services: Services, request: Request<typeof schemas.getStreams>) {
  return { streams: listChannels(services, me(request), request.params) };
}

/** GET /streams/{stream_id:int} */
export function getStreamById(services: Services, request: Request<typeof schemas.getStreamById, { stream_id: number }>) {
  return ({ stream: channelObject(services, seeChannelById(services, me(request), request.params.stream_id)) });
}

/** GET /get_stream_id */
export function getStreamId(services: Services, request: Request<typeof schemas.getStreamId>) {
  return { stream_id: channelIdByName(services, me(request), request.params.stream) };
}

/** GET /users/me/{stream_id:int}/topics */
export async function getStreamTopics(services: Services, request: Request<typeof schemas.getStreamTopics, { stream_id: number }>) {
  return { topics: await channelTopicList(services, me(request), request.params.stream_id, request.params.allow_empty_topic_name) };
}
