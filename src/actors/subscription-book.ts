/**
 * Every user's subscriptions, read and changed through the users' subscriptions actors, and
 * the index derived from them that sends need: each channel's current subscribers.
 */
import type { ActorRegistry } from './registry.js';
import { VisibilityPolicy } from '../domain/topic-visibility.js';
import { subscriptionsKind, type SubscriptionProperty, type SubscriptionState, type SubscriptionsContext, type TopicVisibility } from './subscriptions.js';
import type { Transaction } from '../store/transaction.js';

const EMPTY: ReadonlySet<number> = new Set();

export class SubscriptionBook {
  private readonly subscribers = new Map<number, Set<number>>();

  constructor(private readonly actors: ActorRegistry) {}

  /** Builds the channel index from every restored actor (start-up; grows with users, not messages). */
  rebuildIndex(): void {
    this.subscribers.clear();
    for (const id of this.actors.ids(subscriptionsKind.name)) {
      const context = this.context(Number(id));
      for (const [channelId, sub] of Object.entries(context.channels)) if (sub.active) this.add(Number(channelId), Number(id));
    }
  }

  private context(userId: number): SubscriptionsContext {
    const snapshot = this.actors.peek(subscriptionsKind, String(userId));
    return snapshot?.context ?? { userId, channels: {}, topics: {} };
  }

  /** Current subscribers of a channel (read-only view). */
  subscribersOf(channelId: number): ReadonlySet<number> {
    return this.subscribers.get(channelId) ?? EMPTY;
  }

  isSubscribed(userId: number, channelId: number): boolean {
    return this.subscribers.get(channelId)?.has(userId) ?? false;
  }

  /** The user's subscription to a channel, active or not (settings survive unsubscribing). */
  subscription(userId: number, channelId: number): SubscriptionState | undefined {
    return this.context(userId).channels[channelId];
  }

  /** All of a user's subscription states by channel id, active and inactive. */
  channelsOf(userId: number): Record<string, SubscriptionState> {
    return this.context(userId).channels;
  }

  topicVisibility(userId: number, channelId: number, topicKey: string): TopicVisibility | undefined {
    return this.context(userId).topics[`${channelId}:${topicKey}`];
  }

  topicPolicy(userId: number, channelId: number, topicKey: string): number {
    return this.topicVisibility(userId, channelId, topicKey)?.policy ?? VisibilityPolicy.INHERIT;
  }

  topicsOf(userId: number): TopicVisibility[] {
    return Object.values(this.context(userId).topics);
  }

  subscribe(userId: number, channelId: number, color: string, tx: Transaction): void {
    this.actors.send(subscriptionsKind, String(userId), { type: 'SUBSCRIBE', channelId, color }, tx);
    if (this.isSubscribed(userId, channelId)) return;
    this.add(channelId, userId);
    tx.onRollback(() => this.subscribers.get(channelId)?.delete(userId));
  }

  unsubscribe(userId: number, channelId: number, tx: Transaction): void {
    this.actors.send(subscriptionsKind, String(userId), { type: 'UNSUBSCRIBE', channelId }, tx);
    if (!this.isSubscribed(userId, channelId)) return;
    this.subscribers.get(channelId)!.delete(userId);
    tx.onRollback(() => this.add(channelId, userId));
  }

  setProperty(userId: number, channelId: number, property: SubscriptionProperty, value: string | boolean | null, tx: Transaction): void {
    this.actors.send(subscriptionsKind, String(userId), { type: 'SET_PROPERTY', channelId, property, value }, tx);
  }

  setTopicVisibility(userId: number, channelId: number, topic: string, topicKey: string, policy: number, at: number, tx: Transaction): void {
    this.actors.send(subscriptionsKind, String(userId), {
      type: 'SET_TOPIC_VISIBILITY',
      channelId,
      topic,
      topicKey,
      policy: policy as 0 | 1 | 2 | 3,
      at,
    }, tx);
  }

  private add(channelId: number, userId: number): void {
    let set = this.subscribers.get(channelId);
    if (!set) {
      set = new Set();
      this.subscribers.set(channelId, set);
    }
    set.add(userId);
  }
}
