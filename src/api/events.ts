/** `POST /register`, `GET /events` (long-poll) and `DELETE /events`. */
import type { Services } from '../services.js';
import { deleteQueue, pollQueue, registerQueue } from '../actions/event-queues.js';
import { me, type ApiRoute } from './route.js';

export function eventRoutes(services: Services): ApiRoute[] {
  return [
    {
      method: 'POST',
      path: '/register',
      schema: 'register-queue',
      auth: 'user',
      handler: (request) => {
        const p = request.params;
        return registerQueue(services, me(request), {
          narrow: p.narrow,
          eventTypes: p.event_types ?? null,
          fetchEventTypes: p.fetch_event_types ?? null,
          allPublicStreams: p.all_public_streams,
          applyMarkdown: p.apply_markdown,
          clientGravatar: p.client_gravatar,
          slimPresence: p.slim_presence,
          includeSubscribers: p.include_subscribers,
          clientCapabilities: p.client_capabilities,
          queueLifespanSeconds: p.queue_lifespan_secs,
        });
      },
    },
    {
      method: 'GET',
      path: '/events',
      schema: 'get-events',
      auth: 'user',
      handler: (request) => pollQueue(services, me(request), request.params.queue_id, request.params.last_event_id, request.params.dont_block, () => request.defer()),
    },
    {
      method: 'DELETE',
      path: '/events',
      schema: 'delete-queue',
      auth: 'user',
      handler: async (request) => {
        await deleteQueue(services, me(request), request.params.queue_id);
        return {};
      },
    },
  ];
}
