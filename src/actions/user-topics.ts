/** A user's visibility policy for a topic (muted, unmuted, followed), with its `user_topic` event. */
import { EMPTY_TOPIC_DISPLAY_NAME } from '../domain/realm.js';
import { normalizeTopic, topicKey } from '../domain/topics.js';
import type { UserRecord } from '../domain/users.js';
import { LIMITS } from '../domain/versions.js';
import type { ChannelRecord } from '../domain/channel-record.js';
import type { Services } from '../services.js';
import type { Transaction } from '../store/transaction.js';
import { VisibilityPolicy } from '../domain/topic-visibility.js';
import { unixSeconds } from '../services.js';

/** Sets a topic's visibility for the user; no event when nothing changes. */
export function setVisibility(services: Services, tx: Transaction, user: UserRecord, channel: ChannelRecord, rawTopic: string, policy: number): void {
  const topic = normalizeTopic(rawTopic, { maxLength: LIMITS.maxTopicLength, emptyTopicDisplayName: EMPTY_TOPIC_DISPLAY_NAME });
  if (services.subscriptions.topicPolicy(user.id, channel.id, topicKey(topic)) === policy) return;
  setTopicPolicy(services, tx, user.id, channel.id, topic, policy);
}

/**
 * Sets a user's topic policy and tells the user's clients: older ones through the full
 * `muted_topics` list first (queues that take `user_topic` skip it), then `user_topic`.
 */
export function setTopicPolicy(services: Services, tx: Transaction, userId: number, channelId: number, topic: string, policy: number): void {
  const now = unixSeconds(services.clock);
  services.subscriptions.setTopicVisibility(userId, channelId, topic, topicKey(topic), policy, now, tx);
  tx.emit(() => ({
    type: 'muted_topics',
    muted_topics: services.subscriptions
      .topicsOf(userId)
      .filter((t) => t.policy === VisibilityPolicy.MUTED)
      .map((t) => [services.org.channels.get(t.channelId)?.name ?? '', t.topic, t.lastUpdated]),
  }), [userId]);
  tx.emit({ type: 'user_topic', stream_id: channelId, topic_name: topic, last_updated: now, visibility_policy: policy }, [userId]);
}

/** `POST /user_topics` and the deprecated muted-topics endpoint: one topic's policy, in one write. */
export function updateTopicVisibility(services: Services, user: UserRecord, channel: ChannelRecord, rawTopic: string, policy: number): Promise<void> {
  return services.write((tx) => setVisibility(services, tx, user, channel, rawTopic, policy));
}
