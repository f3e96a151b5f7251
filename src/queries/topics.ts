/** Reads about a channel's topics: their messages, the newest that remains, those a user received. */
import type { MessageRecord } from '../domain/messages.js';
import { topicKey } from '../domain/topics.js';
import type { Services } from '../services.js';
import type { TopicRecord } from '../store/messages.js';
import { messageFlags } from './message-state.js';
import { withFields } from '../shared/with-fields.js';

/** The newest message of a topic other than those in `except`, or undefined when none remains. */
export function newestInTopic(services: Services, channelId: number, topic: string, except?: ReadonlySet<number>): Promise<number | undefined> {
  return services.messages.newest({ of: 'topic', channelId, topicKey: topicKey(topic) }, except);
}

/** A topic's messages, oldest first, from `fromId` (inclusive) on, or all of them. */
export async function topicMessages(services: Services, channelId: number, topic: string, fromId?: number): Promise<MessageRecord[]> {
  const found: MessageRecord[] = [];
  const range = { of: 'topic', channelId, topicKey: topicKey(topic) } as const;
  for await (const id of services.messages.ids(range, { reverse: false, from: fromId, inclusive: true })) {
    const message = services.messages.get(id);
    if (message) found.push(message);
  }
  return found;
}

/**
 * The topics of a channel whose history the user may not read (protected history): only those
 * of messages the user received, each with the newest of them, as Zulip lists them.
 */
export async function receivedTopics(services: Services, userId: number, channelId: number): Promise<TopicRecord[]> {
  const found: TopicRecord[] = [];
  for (const topic of await services.messages.topics(channelId)) {
    for await (const id of services.messages.ids({ of: 'topic', channelId, topicKey: topicKey(topic.name) }, { reverse: true })) {
      const record = services.messages.get(id);
      if (!record || messageFlags(services, userId, record) === undefined) continue;
      found.push(withFields(topic, { maxId: id }));
      break;
    }
  }
  return found;
}
