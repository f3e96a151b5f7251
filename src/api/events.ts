/** `POST /register`, `GET /events` (long-poll) and `DELETE /events`. */
import { badRequest } from '../domain/errors.js';
import { isGuest } from '../domain/roles.js';
import { LIMITS, ZULIP_FEATURE_LEVEL, ZULIP_MERGE_BASE, ZULIP_VERSION } from '../domain/versions.js';
import type { QueueCapabilities } from '../events/event-queue.js';
import { checkEventNarrow } from '../events/queue-filter.js';
import type { Services } from '../services.js';
import { initialState } from '../queries/register-state.js';
import * as schemas from '../schemas/index.js';
import { me, type Request } from './route.js';

function capabilities(raw: Record<string, unknown>): QueueCapabilities {
  const flag = (key: string) => raw[key] === true;
  return {
    bulkMessageDeletion: flag('bulk_message_deletion'),
    emptyTopicName: flag('empty_topic_name'),
    streamTypingNotifications: flag('stream_typing_notifications'),
    userSettingsObject: flag('user_settings_object'),
    notificationSettingsNull: flag('notification_settings_null'),
    userAvatarUrlFieldOptional: flag('user_avatar_url_field_optional'),
  };
}

/** POST /register */
export async function registerQueue(services: Services, request: Request<typeof schemas.registerQueue>) {
  const { queues } = services;
  const user = me(request);
  const p = request.params;
  const narrow = checkEventNarrow(p.narrow);
  if (p.all_public_streams && isGuest(user.role)) throw badRequest('User not authorized for this query');
  const eventTypes = (p.event_types ?? null) as string[] | null;
  const fetchTypes = (p.fetch_event_types ?? eventTypes) as string[] | null;
  const caps = capabilities(p.client_capabilities);
  const includeSubscribers = p.include_subscribers === true || p.include_subscribers === 'true' || p.include_subscribers === 'partial';
  // The queue first, then the state: events committed meanwhile reach the queue.
  const queue = await queues.register({
    userId: user.id,
    eventTypes,
    narrow,
    applyMarkdown: p.apply_markdown,
    clientGravatar: p.client_gravatar,
    allPublicStreams: p.all_public_streams,
    // Zulip treats a narrow like all_public_streams; a guest must not see channels beyond their own.
    watchesPublicChannels: p.all_public_streams || (narrow.length > 0 && !isGuest(user.role)),
    slimPresence: p.slim_presence,
    capabilities: caps,
    lifespanSeconds: Math.min(p.queue_lifespan_secs, LIMITS.maxQueueLifespanSeconds),
  });
  const state = await initialState(services, {
    user,
    fetchTypes,
    eventTypes,
    clientGravatar: p.client_gravatar,
    includeSubscribers,
    slimPresence: p.slim_presence,
    capabilities: caps,
  });
  return {
    queue_id: queue.id,
    last_event_id: -1,
    zulip_version: ZULIP_VERSION,
    zulip_feature_level: ZULIP_FEATURE_LEVEL,
    zulip_merge_base: ZULIP_MERGE_BASE,
    event_queue_longpoll_timeout_seconds: LIMITS.eventQueueLongpollTimeoutSeconds,
    ...state,
  };
}

/** GET /events */
export function getEvents(services: Services, request: Request<typeof schemas.getEvents>) {
  const { queues } = services;
  const user = me(request);
  const queue = queues.get(request.params.queue_id, user.id);
  return queue.poll(request.params.last_event_id, request.params.dont_block, services.clock.now(), () => request.defer(), queues.heartbeatMs());
}

/** DELETE /events */
export async function deleteQueue(services: Services, request: Request<typeof schemas.deleteQueue>) {
  const { queues } = services;
  const queue = queues.get(request.params.queue_id, me(request).id);
  await services.write((tx) => {
    queues.remove(queue, tx);
  });
  return {};
}
