/** `POST /register`, `GET /events` (long-poll) and `DELETE /events`. */
import type { Services } from '../services.js';
import * as actions from '../actions/event-queues.js';
import * as schemas from '../../schemas/index.js';
import { me, type Request } from './route.js';

/** POST /register */
export function registerQueue(services: Services, request: Request<typeof schemas.registerQueue>) {
  const p = request.params;
  return actions.registerQueue(services, me(request), {
    narrow: p.narrow,
    eventTypes: (p.event_types ?? null) as string[] | null,
    fetchEventTypes: (p.fetch_event_types ?? null) as string[] | null,
    allPublicStreams: p.all_public_streams,
    applyMarkdown: p.apply_markdown,
    clientGravatar: p.client_gravatar,
    slimPresence: p.slim_presence,
    includeSubscribers: p.include_subscribers,
    clientCapabilities: p.client_capabilities as Record<string, unknown>,
    queueLifespanSeconds: p.queue_lifespan_secs,
  });
}

/** GET /events */
export function getEvents(services: Services, request: Request<typeof schemas.getEvents>) {
  return actions.pollQueue(services, me(request), request.params.queue_id, request.params.last_event_id, request.params.dont_block, () => request.defer());
}

/** DELETE /events */
export async function deleteQueue(services: Services, request: Request<typeof schemas.deleteQueue>) {
  await actions.deleteQueue(services, me(request), request.params.queue_id);
  return {};
}
