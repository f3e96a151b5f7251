/** `POST /typing`: typing notifications. */
import type { Services } from '../services.js';
import { sendTyping } from '../actions/typing.js';
import { me, type ApiRoute } from './route.js';

export function typingRoutes(services: Services): ApiRoute[] {
  return [
    {
      method: 'POST',
      path: '/typing',
      schema: 'set-typing-status',
      auth: 'user',
      handler: async (request) => {
        const p = request.params;
        await sendTyping(services, me(request), { type: p.type, op: p.op, to: p.to, streamId: p.stream_id, topic: p.topic });
        return {};
      },
    },
  ];
}
