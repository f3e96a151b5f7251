/**
 * Per-channel personal settings and topic visibility: `POST /users/me/subscriptions/properties`,
 * `PATCH /users/me/subscriptions/muted_topics` (deprecated) and `POST /user_topics`.
 */
import { VisibilityPolicy } from '../domain/topic-visibility.js';
import { badRequest } from '../domain/errors.js';
import type { ChannelRecord } from '../domain/channel-record.js';
import type { Services } from '../services.js';
import { accessChannelById, channelVisible } from '../queries/channel-access.js';
import * as schemas from '../../schemas/index.js';
import { me, type Request } from './route.js';
import { updateSubscriptionProperties } from '../actions/subscription-properties.js';
import { updateTopicVisibility } from '../actions/user-topics.js';

/** POST /users/me/subscriptions/properties */
export async function updateSubscriptionSettings(services: Services, request: Request<typeof schemas.updateSubscriptionSettings>) {
  const user = me(request);
  await updateSubscriptionProperties(services, user, request.params.subscription_data);
  return {};
}

/** PATCH /users/me/subscriptions/muted_topics */
export async function muteTopic(services: Services, request: Request<typeof schemas.muteTopic>) {
  const { org } = services;
  const user = me(request);
  const p = request.params;
  if (p.stream_id !== undefined && p.stream !== undefined) throw badRequest("Please choose one: 'stream' or 'stream_id'.");
  let channel: ChannelRecord;
  if (p.stream_id !== undefined) channel = accessChannelById(services, user, p.stream_id);
  else if (p.stream !== undefined) {
    const found = org.channels.byName(String(p.stream).trim());
    if (!found || !channelVisible(services, user, found)) throw badRequest(`Invalid channel name '${p.stream}'`);
    channel = found;
  } else throw badRequest("Please supply 'stream'.");
  await updateTopicVisibility(services, user, channel, p.topic, p.op === 'add' ? VisibilityPolicy.MUTED : VisibilityPolicy.INHERIT);
  return {};
}

/** POST /user_topics */
export async function updateUserTopic(services: Services, request: Request<typeof schemas.updateUserTopic>) {
  const user = me(request);
  const p = request.params;
  const channel = accessChannelById(services, user, p.stream_id);
  await updateTopicVisibility(services, user, channel, p.topic, p.visibility_policy);
  return {};
}
