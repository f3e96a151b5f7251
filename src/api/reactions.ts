/** `POST` and `DELETE /messages/{message_id}/reactions`: emoji reactions, votes on them, and their events. */
import type { Services } from '../services.js';
import { me, type ApiRoute } from './route.js';
import { addReaction, removeReaction } from '../actions/reactions.js';

export function reactionRoutes(services: Services): ApiRoute[] {
  return [
    {
      method: 'POST',
      path: '/messages/{message_id:int}/reactions',
      schema: 'add-reaction',
      auth: 'user',
      handler: async (request) => {
        const p = request.params;
        await addReaction(services, me(request), p.message_id, p.emoji_name, p.emoji_code, p.reaction_type);
        return {};
      },
    },
    {
      method: 'DELETE',
      path: '/messages/{message_id:int}/reactions',
      schema: 'remove-reaction',
      auth: 'user',
      handler: async (request) => {
        const p = request.params;
        await removeReaction(services, me(request), p.message_id, p.emoji_name, p.emoji_code, p.reaction_type);
        return {};
      },
    },
  ];
}
