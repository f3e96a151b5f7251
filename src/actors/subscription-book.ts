/**
 * Every user's subscriptions, read and changed through the users' subscriptions actors, and
 * the indexes derived from them: each channel's current subscribers (sends), and each
 * channel's receivers, everyone with a reception interval there (who may hold its messages).
 */
import type { ActorRegistry } from './registry.js';
import { VisibilityPolicy } from '../domain/topic-visibility.js';
import { subscriptionsKind, type SubscriptionProperty, type SubscriptionState, type SubscriptionsContext, type TopicVisibility } from './subscriptions.js';
import type { Transaction } from '../store/transaction.js';
import { NO_INTERVALS, type Intervals } from '../domain/reception.js';

const EMPTY: ReadonlySet<number> = new Set();

/** A channel where the user received messages, with the intervals (see domain/reception.ts). */
export interface Reception {
  channelId: number;
  intervals: Intervals;
}

export class SubscriptionBook {
  private readonly subscribers = new Map<number, Set<number>>();
  /** Bumped whenever any channel's subscribers change (rolled-back changes too): readers cache what they derive. */
  subscribersVersion = 0;
  private readonly receivers = new Map<number, Set<number>>();
  /**
   * Who may be notified of a channel's messages beyond mentions (actions/notification-decision.ts):
   * per channel, users whose subscription turns push or email notifications on; per topic, its
   * followers. Kept with every change, so a send looks up those few, never every subscriber.
   */
  private readonly notifying = new Map<number, Set<number>>();
  private readonly followers = new Map<string, Set<number>>();
  /** What each user put into those two indexes, to take out again on change. */
  private readonly interestOf = new Map<number, { channels: number[]; topics: string[] }>();
  /** Each user's receptions, by the (immutable) channels record of their actor's context. */
  private readonly receptionLists = new WeakMap<object, readonly Reception[]>();

  constructor(
    private readonly actors: ActorRegistry,
    /** The id the next message will get: where reception intervals open and close. */
    private readonly nextMessageId: () => number,
  ) {}

  /** Builds the channel indexes from every restored actor (start-up; grows with users, not messages). */
  rebuildIndex(): void {
    this.subscribersVersion++;
    this.subscribers.clear();
    this.receivers.clear();
    this.notifying.clear();
    this.followers.clear();
    this.interestOf.clear();
    for (const id of this.actors.ids(subscriptionsKind.name)) {
      const context = this.context(Number(id));
      for (const [channelId, sub] of Object.entries(context.channels)) {
        if (sub.active && !context.suspended) this.add(this.subscribers, Number(channelId), Number(id));
        if (sub.received?.length) this.add(this.receivers, Number(channelId), Number(id));
      }
      this.indexInterest(Number(id));
    }
  }

  /** Users whose subscription to the channel turns push or email notifications on (subscribed or not). */
  notifyingOf(channelId: number): ReadonlySet<number> {
    return this.notifying.get(channelId) ?? EMPTY;
  }

  /** Users following the topic (subscribed or not). */
  followersOf(channelId: number, topicKey: string): ReadonlySet<number> {
    return this.followers.get(`${channelId}:${topicKey}`) ?? EMPTY;
  }

  /** Puts the user into (or out of) the interest indexes from their actor's state. */
  private indexInterest(userId: number): void {
    const context = this.context(userId);
    const previous = this.interestOf.get(userId);
    for (const channelId of previous?.channels ?? []) this.notifying.get(channelId)?.delete(userId);
    for (const key of previous?.topics ?? []) this.followers.get(key)?.delete(userId);
    const now = { channels: [] as number[], topics: [] as string[] };
    for (const [channelId, sub] of Object.entries(context.channels)) {
      if (sub.pushNotifications !== true && sub.emailNotifications !== true) continue;
      this.add(this.notifying, Number(channelId), userId);
      now.channels.push(Number(channelId));
    }
    for (const [key, topic] of Object.entries(context.topics)) {
      if (topic.policy !== VisibilityPolicy.FOLLOWED) continue;
      let set = this.followers.get(key);
      if (!set) this.followers.set(key, (set = new Set()));
      set.add(userId);
      now.topics.push(key);
    }
    this.interestOf.set(userId, now);
  }

  /** After a change of the user's notification settings or topic policies, and after its undo. */
  private reindexInterest(userId: number, tx: Transaction): void {
    this.indexInterest(userId);
    tx.onRollback(() => this.indexInterest(userId));
  }

  /**
   * Gives every subscription written before reception intervals existed its interval: active
   * ones receive from `from` on (older messages keep their per-user rows). One event per user.
   */
  cutOver(from: number, tx: Transaction): number {
    let users = 0;
    for (const id of this.actors.ids(subscriptionsKind.name)) {
      const context = this.context(Number(id));
      if (Object.values(context.channels).every((sub) => sub.received !== undefined)) continue;
      this.actors.send(subscriptionsKind, id, { type: 'CUT_OVER', from }, tx);
      users++;
    }
    this.rebuildIndex();
    tx.onRollback(() => this.rebuildIndex());
    return users;
  }

  private context(userId: number): SubscriptionsContext {
    const snapshot = this.actors.peek(subscriptionsKind, String(userId));
    return snapshot?.context ?? { userId, channels: {}, topics: {} };
  }

  /** Current subscribers of a channel (read-only view). */
  subscribersOf(channelId: number): ReadonlySet<number> {
    return this.subscribers.get(channelId) ?? EMPTY;
  }

  /** Everyone who ever received messages in the channel (subscribed now or before). */
  receiversOf(channelId: number): ReadonlySet<number> {
    return this.receivers.get(channelId) ?? EMPTY;
  }

  /** The channels where the user received messages (built once per change of their subscriptions). */
  receptionsOf(userId: number): readonly Reception[] {
    const channels = this.context(userId).channels;
    let list = this.receptionLists.get(channels);
    if (!list) {
      list = Object.entries(channels)
        .filter(([, state]) => state.received?.length)
        .map(([channelId, state]) => ({ channelId: Number(channelId), intervals: state.received! }));
      this.receptionLists.set(channels, list);
    }
    return list;
  }

  /** The message ids the user received in the channel (domain/reception.ts). */
  received(userId: number, channelId: number): Intervals {
    return this.context(userId).channels[channelId]?.received ?? NO_INTERVALS;
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
    this.actors.send(subscriptionsKind, String(userId), { type: 'SUBSCRIBE', channelId, color, from: this.nextMessageId() }, tx);
    if (!this.receiversOf(channelId).has(userId)) {
      this.add(this.receivers, channelId, userId);
      tx.onRollback(() => this.receivers.get(channelId)?.delete(userId));
    }
    if (this.isSubscribed(userId, channelId)) return;
    this.add(this.subscribers, channelId, userId);
    this.subscribersVersion++;
    tx.onRollback(() => (this.subscribers.get(channelId)?.delete(userId), this.subscribersVersion++));
  }

  unsubscribe(userId: number, channelId: number, tx: Transaction): void {
    this.actors.send(subscriptionsKind, String(userId), { type: 'UNSUBSCRIBE', channelId, until: this.nextMessageId() }, tx);
    if (!this.isSubscribed(userId, channelId)) return;
    this.subscribers.get(channelId)!.delete(userId);
    this.subscribersVersion++;
    tx.onRollback(() => (this.add(this.subscribers, channelId, userId), this.subscribersVersion++));
  }

  /**
   * Deactivation: the user's intervals close and they leave every subscriber list, while their
   * subscriptions stay for a reactivation (Zulip keeps the rows, marked `is_user_active = False`).
   */
  suspend(userId: number, tx: Transaction): void {
    this.actors.send(subscriptionsKind, String(userId), { type: 'SUSPEND', until: this.nextMessageId() }, tx);
    for (const [channelId, state] of Object.entries(this.channelsOf(userId))) {
      if (!state.active || !this.isSubscribed(userId, Number(channelId))) continue;
      this.subscribers.get(Number(channelId))!.delete(userId);
      this.subscribersVersion++;
      tx.onRollback(() => (this.add(this.subscribers, Number(channelId), userId), this.subscribersVersion++));
    }
  }

  /** Reactivation: intervals reopen for the channels still subscribed, and the user is back in their subscriber lists. */
  resume(userId: number, tx: Transaction): void {
    this.actors.send(subscriptionsKind, String(userId), { type: 'RESUME', from: this.nextMessageId() }, tx);
    for (const [channelId, state] of Object.entries(this.channelsOf(userId))) {
      if (!state.active || this.isSubscribed(userId, Number(channelId))) continue;
      this.add(this.subscribers, Number(channelId), userId);
      this.subscribersVersion++;
      tx.onRollback(() => (this.subscribers.get(Number(channelId))?.delete(userId), this.subscribersVersion++));
    }
  }

  setProperty(userId: number, channelId: number, property: SubscriptionProperty, value: string | boolean | null, tx: Transaction): void {
    this.actors.send(subscriptionsKind, String(userId), { type: 'SET_PROPERTY', channelId, property, value }, tx);
    if (property === 'push_notifications' || property === 'email_notifications') this.reindexInterest(userId, tx);
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
    this.reindexInterest(userId, tx);
  }

  private add(index: Map<number, Set<number>>, channelId: number, userId: number): void {
    let set = index.get(channelId);
    if (!set) {
      set = new Set();
      index.set(channelId, set);
    }
    set.add(userId);
  }
}
