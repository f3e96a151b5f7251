/**
 * Personal message flags: `POST /messages/flags`, `POST /messages/flags/narrow`, and marking
 * everything, a channel or a topic as read.
 */
import type { Services } from '../services.js';
import * as actions from '../actions/message-flags.js';
import * as marking from '../actions/mark-read.js';
import * as schemas from '../../schemas/index.js';
import { me, type Request } from './route.js';

/** POST /messages/flags */
export async function updateMessageFlags(services: Services, request: Request<typeof schemas.updateMessageFlags>) {
  const p = request.params;
  const result = await actions.updateFlags(services, me(request), p.messages, p.op, p.flag);
  return { messages: p.messages, ignored_because_not_subscribed_channels: result.ignoredChannels };
}

/** POST /messages/flags/narrow */
export function updateMessageFlagsForNarrow(services: Services, request: Request<typeof schemas.updateMessageFlagsForNarrow>) {
  const p = request.params;
  return actions.updateFlagsInNarrow(services, me(request), {
    narrow: p.narrow, anchor: p.anchor, numBefore: p.num_before, numAfter: p.num_after, includeAnchor: p.include_anchor, op: p.op, flag: p.flag,
  });
}

/** POST /mark_all_as_read */
export async function markAllAsRead(services: Services, request: Request<typeof schemas.markAllAsRead>) {
  await marking.markAllAsRead(services, me(request));
  return { complete: true };
}

/** POST /mark_stream_as_read */
export async function markStreamAsRead(services: Services, request: Request<typeof schemas.markStreamAsRead>) {
  await marking.markChannelAsRead(services, me(request), request.params.stream_id);
  return {};
}

/** POST /mark_topic_as_read */
export async function markTopicAsRead(services: Services, request: Request<typeof schemas.markTopicAsRead>) {
  await marking.markTopicAsRead(services, me(request), request.params.stream_id, request.params.topic_name);
  return {};
}
