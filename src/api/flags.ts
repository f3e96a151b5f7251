/**
 * Personal message flags: `POST /messages/flags`, `POST /messages/flags/narrow`, and marking
 * everything, a channel or a topic as read.
 */
import type { Services } from '../services.js';
import { markAllAsRead, markChannelAsRead, markTopicAsRead, updateFlags, updateFlagsInNarrow } from '../actions/message-flags.js';
import { me, type ApiRoute } from './route.js';

export function flagRoutes(services: Services): ApiRoute[] {
  return [
    {
      method: 'POST',
      path: '/messages/flags',
      schema: 'update-message-flags',
      auth: 'user',
      handler: async (request) => {
        const p = request.params;
        const result = await updateFlags(services, me(request), p.messages, p.op, p.flag);
        return { messages: p.messages, ignored_because_not_subscribed_channels: result.ignoredChannels };
      },
    },
    {
      method: 'POST',
      path: '/messages/flags/narrow',
      schema: 'update-message-flags-for-narrow',
      auth: 'user',
      handler: (request) => {
        const p = request.params;
        return updateFlagsInNarrow(services, me(request), {
          narrow: p.narrow, anchor: p.anchor, numBefore: p.num_before, numAfter: p.num_after, includeAnchor: p.include_anchor, op: p.op, flag: p.flag,
        });
      },
    },
    {
      method: 'POST',
      path: '/mark_all_as_read',
      schema: 'mark-all-as-read',
      auth: 'user',
      handler: async (request) => {
        await markAllAsRead(services, me(request));
        return { complete: true };
      },
    },
    {
      method: 'POST',
      path: '/mark_stream_as_read',
      schema: 'mark-stream-as-read',
      auth: 'user',
      handler: async (request) => {
        await markChannelAsRead(services, me(request), request.params.stream_id);
        return {};
      },
    },
    {
      method: 'POST',
      path: '/mark_topic_as_read',
      schema: 'mark-topic-as-read',
      auth: 'user',
      handler: async (request) => {
        await markTopicAsRead(services, me(request), request.params.stream_id, request.params.topic_name);
        return {};
      },
    },
  ];
}
