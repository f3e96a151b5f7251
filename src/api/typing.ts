/** `POST /typing`: typing notifications, relayed as `typing` events and never stored. */
import { badRequest } from '../domain/errors.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../domain/realm.js';
import { normalizeTopic } from '../domain/topics.js';
import { apiEmail } from '../domain/users.js';
import { LIMITS } from '../domain/versions.js';
import type { Services } from '../services.js';
import { Transaction } from '../store/transaction.js';
import { accessChannelById } from '../queries/channel-access.js';
import { me, type ApiRoute } from './route.js';

/** Channels larger than this get no typing notifications (Zulip's limit). */
const MAX_CHANNEL_SIZE_FOR_TYPING = 100;

export function typingRoutes(services: Services): ApiRoute[] {
  const { org } = services;
  return [
    {
      method: 'POST',
      path: '/typing',
      schema: 'set-typing-status',
      auth: 'user',
      handler: async (request) => {
        const user = me(request);
        const p = request.params;
        const person = (u: { id: number; deliveryEmail: string; isBot: boolean; emailAddressVisibility: number }) => ({
          user_id: u.id,
          email: apiEmail(org.users.get(u.id)!, org.host),
        });
        await services.write((tx) => {
          if (p.type === 'direct') {
            if (p.to === undefined) throw badRequest("Missing 'to' argument");
            const ids = p.to as number[];
            if (ids.length === 0) throw badRequest("Empty 'to' list");
            // Deactivated users may be listed (Zulip names the conversation with them); only active ones are told.
            const users = ids.map((id) => {
              const found = org.users.get(id);
              if (!found) throw badRequest(`Invalid user ID ${id}`);
              return found;
            });
            if (!users.some((u) => u.id === user.id)) users.push(user);
            tx.emit(
              { type: 'typing', op: p.op, message_type: 'direct', sender: person(user), recipients: users.map(person) },
              users.filter((u) => u.isActive).map((u) => u.id),
            );
          } else {
            if (p.stream_id === undefined) throw badRequest("Missing 'stream_id' argument");
            if (p.topic === undefined) throw badRequest('Missing topic');
            const channel = accessChannelById(services, user, p.stream_id);
            const topic = normalizeTopic(p.topic, { maxLength: LIMITS.maxTopicLength, emptyTopicDisplayName: EMPTY_TOPIC_DISPLAY_NAME });
            const subscribers = [...services.subscriptions.subscribersOf(channel.id)].filter((id) => org.users.get(id)?.isActive);
            if (subscribers.length <= MAX_CHANNEL_SIZE_FOR_TYPING) {
              tx.emit({ type: 'typing', op: p.op, message_type: 'stream', sender: person(user), stream_id: channel.id, topic }, subscribers);
            }
          }
        });
        return {};
      },
    },
  ];
}
