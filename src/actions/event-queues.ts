/**
 * Event queues on behalf of a user: registering one (the queue first, then the initial state,
 * so that events committed meanwhile reach it), polling it, and deleting it.
 */
import { isGuest } from '../domain/roles.js';
import type { UserRecord } from '../domain/users.js';
import { LIMITS, ZULIP_FEATURE_LEVEL, ZULIP_MERGE_BASE, ZULIP_VERSION } from '../domain/versions.js';
import type { QueueCapabilities } from '../events/event-queue.js';
import { checkEventNarrow } from '../domain/narrow-predicate.js';
import { RawJson, type Deferred, type HandlerResult } from '../shared/handler-result.js';
import type { Services } from '../services.js';
import { initialState } from '../queries/register-state.js';
import { mayWatchAllPublicChannels, refusalError } from '../domain/permissions.js';

export interface RegisterRequest {
  narrow: unknown;
  eventTypes: string[] | null;
  fetchEventTypes: string[] | null;
  allPublicStreams: boolean;
  applyMarkdown: boolean;
  clientGravatar: boolean;
  slimPresence: boolean;
  includeSubscribers: unknown;
  clientCapabilities: Record<string, unknown>;
  queueLifespanSeconds: number;
}

function capabilities(raw: Record<string, unknown>): QueueCapabilities {
  const flag = (key: string) => raw[key] === true;
  return {
    bulkMessageDeletion: flag('bulk_message_deletion'),
    emptyTopicName: flag('empty_topic_name'),
    streamTypingNotifications: flag('stream_typing_notifications'),
    userSettingsObject: flag('user_settings_object'),
    notificationSettingsNull: flag('notification_settings_null'),
    userAvatarUrlFieldOptional: flag('user_avatar_url_field_optional'),
    includeDeactivatedGroups: flag('include_deactivated_groups'),
    archivedChannels: flag('archived_channels'),
    linkifierUrlTemplate: flag('linkifier_url_template'),
  };
}

/** `POST /register`: a new queue and the state the client asked for. */
export async function registerQueue(services: Services, user: UserRecord, request: RegisterRequest): Promise<RawJson> {
  const narrow = checkEventNarrow(request.narrow);
  const refusal = request.allPublicStreams ? mayWatchAllPublicChannels(user) : null;
  if (refusal) throw refusalError(refusal);
  const eventTypes = request.eventTypes;
  const fetchTypes = request.fetchEventTypes ?? eventTypes;
  const caps = capabilities(request.clientCapabilities);
  const include = request.includeSubscribers;
  const includeSubscribers = include === 'partial' ? 'partial' : include === true || include === 'true';
  // The queue first, then the state: events committed meanwhile reach the queue. The queue is
  // live at once; its descriptor is made durable while the state is read, and the answer waits
  // for both (no queue id is given out before it would survive a restart).
  const registering = services.queues.register({
    userId: user.id,
    eventTypes,
    narrow,
    applyMarkdown: request.applyMarkdown,
    clientGravatar: request.clientGravatar,
    allPublicStreams: request.allPublicStreams,
    // Zulip treats a narrow like all_public_streams; a guest must not see channels beyond their own.
    watchesPublicChannels: request.allPublicStreams || (narrow.length > 0 && !isGuest(user.role)),
    slimPresence: request.slimPresence,
    capabilities: caps,
    lifespanSeconds: Math.min(request.queueLifespanSeconds, LIMITS.maxQueueLifespanSeconds),
  });
  const [queue, { fields, json }] = await Promise.all([registering, initialState(services, {
    user,
    fetchTypes,
    eventTypes,
    clientGravatar: request.clientGravatar,
    includeSubscribers,
    slimPresence: request.slimPresence,
    capabilities: caps,
  })]);
  const head = JSON.stringify({
    queue_id: queue.id,
    last_event_id: -1,
    zulip_version: ZULIP_VERSION,
    zulip_feature_level: ZULIP_FEATURE_LEVEL,
    zulip_merge_base: ZULIP_MERGE_BASE,
    event_queue_longpoll_timeout_seconds: LIMITS.eventQueueLongpollTimeoutSeconds,
    ...fields,
  }).slice(1, -1);
  // The large lists come serialised and encoded (the user lists once per role): copied, never encoded again.
  return new RawJson(head, undefined, json);
}

/**
 * `GET /events`: acknowledges up to `lastEventId`, answers at once or parks the request. A queue
 * restored at start is first given what it had not acknowledged before the restart.
 */
export function pollQueue(services: Services, user: UserRecord, queueId: string, lastEventId: number, dontBlock: boolean, defer: () => Deferred): HandlerResult {
  const { queues } = services;
  const poll = (deferred: () => Deferred) => queues.get(queueId, user.id).poll(lastEventId, dontBlock, services.clock.now(), deferred, queues.heartbeatMs());
  const queue = queues.get(queueId, user.id);
  if (!queues.awaitsBacklog(queue)) return poll(defer);
  // Parked at once and answered when the backlog is read, rather than returned as a promise: the
  // front pauses a connection while it awaits an answer, and uWS closes a resumed connection after
  // 10 s without traffic, which would cut a poll that then parks long before its heartbeat.
  const parked = defer();
  queues.fill(queue).then(() => {
    if (parked.done) return; // the client left meanwhile: its next poll repeats this one
    const answer = poll(() => parked);
    if (answer instanceof RawJson) parked.resolve(answer);
  }).catch((error: unknown) => parked.reject(error));
  return parked;
}

/** `DELETE /events`. */
export async function deleteQueue(services: Services, user: UserRecord, queueId: string): Promise<void> {
  const queue = services.queues.get(queueId, user.id);
  await services.write((tx) => services.queues.remove(queue, tx));
}
