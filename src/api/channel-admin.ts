/**
 * Channel administration: `PATCH` and `DELETE /streams/{id}`, deleting a topic, a channel's
 * members and email address, one user's subscription status, default channels.
 */
import type { Services } from '../services.js';
import * as schemas from '../../schemas/index.js';
import { me, type Request } from './route.js';
import { updateChannel } from '../actions/channel-admin.js';
import { archiveChannel } from '../actions/channel-archive.js';
import { addDefaultChannel, removeDefaultChannel } from '../actions/default-channels.js';
import { deleteTopic as deleteTopicAction } from '../actions/topic-deletion.js';
import { channelEmailAddress, channelMembers, subscriptionStatus } from '../queries/channel-members.js';

type ChannelPath = { stream_id: number };

/** PATCH /streams/{stream_id:int} */
export async function updateStream(services: Services, request: Request<typeof schemas.updateStream, ChannelPath>) {
  const { stream_id, description, new_name, is_private, is_web_public, history_public_to_subscribers, is_default_stream, message_retention_days, is_archived, folder_id, topics_policy, ...settings } = request.params;
  await updateChannel(services, me(request), stream_id, {
    description, newName: new_name, isPrivate: is_private, isWebPublic: is_web_public, historyPublicToSubscribers: history_public_to_subscribers,
    isDefaultStream: is_default_stream, messageRetentionDays: message_retention_days, isArchived: is_archived, folderId: folder_id, topicsPolicy: topics_policy, settings,
  });
  return {};
}

/** DELETE /streams/{stream_id:int} */
export async function archiveStream(services: Services, request: Request<typeof schemas.archiveStream, ChannelPath>) {
  await archiveChannel(services, me(request), request.params.stream_id);
  return {};
}

/** POST /streams/{stream_id:int}/delete_topic */
export function deleteTopic(services: Services, request: Request<typeof schemas.deleteTopic, ChannelPath>) {
  return deleteTopicAction(services, me(request), request.params.stream_id, request.params.topic_name);
}

/** GET /streams/{stream_id:int}/members */
export function getSubscribers(services: Services, request: Request<typeof schemas.getSubscribers, ChannelPath>) {
  return { subscribers: channelMembers(services, me(request), request.params.stream_id) };
}

/** GET /users/{user_id:int}/subscriptions/{stream_id:int} */
export function getSubscriptionStatus(services: Services, request: Request<typeof schemas.getSubscriptionStatus, ChannelPath & { user_id: number }>) {
  return { is_subscribed: subscriptionStatus(services, me(request), request.params.user_id, request.params.stream_id) };
}

/** GET /streams/{stream_id:int}/email_address */
export function getStreamEmailAddress(services: Services, request: Request<typeof schemas.getStreamEmailAddress, ChannelPath>) {
  return { email: channelEmailAddress(services, me(request), request.params.stream_id, request.params.sender_id) };
}

/** POST /default_streams */
export async function addDefaultStream(services: Services, request: Request<typeof schemas.defaultStream>) {
  await addDefaultChannel(services, me(request), request.params.stream_id);
  return {};
}

/** DELETE /default_streams */
export async function removeDefaultStream(services: Services, request: Request<typeof schemas.defaultStream>) {
  await removeDefaultChannel(services, me(request), request.params.stream_id);
  return {};
}
