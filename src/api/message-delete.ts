/** `DELETE /messages/{message_id}`: who may delete what and when, and the `delete_message` event. */
import type { Services } from '../services.js';
import { me, type ApiRoute } from './route.js';
import { deleteMessage } from '../actions/message-delete.js';

export function deleteRoutes(services: Services): ApiRoute[] {
  return [
    {
      method: 'DELETE',
      path: '/messages/{message_id:int}',
      schema: 'delete-message',
      auth: 'user',
      handler: async (request) => {
        await deleteMessage(services, me(request), request.params.message_id);
        return {};
      },
    },
  ];
}
