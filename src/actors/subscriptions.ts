/**
 * A user's subscriptions actor: which channels the user is subscribed to, the personal
 * settings of each (colour, muting, pinning, notifications) and the visibility policy of
 * topics (muted, unmuted, followed). Unsubscribing keeps the settings for a later return.
 */
import { VisibilityPolicy } from '../domain/topic-visibility.js';
import { assign, setup } from 'xstate';
import { closeAt, openAt, type Intervals } from '../domain/reception.js';
import type { ActorKind } from './registry.js';
import { Interner } from '../shared/interner.js';
import { withOtherFields } from '../shared/other-fields.js';
import { copyIdKeyed, idKeyedRecord, withIdKey } from './id-keyed-record.js';
import { withFields } from '../shared/with-fields.js';

export interface SubscriptionState {
  active: boolean;
  color: string;
  isMuted: boolean;
  pinToTop: boolean;
  /** null: follow the user's global setting. */
  desktopNotifications: boolean | null;
  audibleNotifications: boolean | null;
  pushNotifications: boolean | null;
  emailNotifications: boolean | null;
  wildcardMentionsNotify: boolean | null;
  /**
   * The message ids the user received in this channel (domain/reception.ts), kept across
   * unsubscribing: which channel messages the user "has". Absent only in snapshots written
   * before reception intervals existed, until the cut-over (CUT_OVER) fills it in.
   */
  received?: Intervals;
}


export interface TopicVisibility {
  channelId: number;
  /** The topic as the user last named it. */
  topic: string;
  policy: VisibilityPolicy;
  /** Unix seconds. */
  lastUpdated: number;
}

export interface SubscriptionsContext {
  userId: number;
  /** By channel id. */
  channels: Record<string, SubscriptionState>;
  /** By `${channelId}:${topic key}`; INHERIT is never stored. */
  topics: Record<string, TopicVisibility>;
  /**
   * The user is deactivated: subscriptions stay (as Zulip's `is_user_active = False` rows) but
   * every reception interval is closed, so nothing sent meanwhile becomes theirs.
   */
  suspended?: boolean;
}

export const SUBSCRIPTION_PROPERTIES = {
  color: 'color',
  is_muted: 'isMuted',
  pin_to_top: 'pinToTop',
  desktop_notifications: 'desktopNotifications',
  audible_notifications: 'audibleNotifications',
  push_notifications: 'pushNotifications',
  email_notifications: 'emailNotifications',
  wildcard_mentions_notify: 'wildcardMentionsNotify',
} as const satisfies Record<string, keyof SubscriptionState>;

export type SubscriptionProperty = keyof typeof SUBSCRIPTION_PROPERTIES;

export type SubscriptionsEvent =
  /** `from`: the next message id, where the reception interval opens. */
  | { type: 'SUBSCRIBE'; channelId: number; color: string; from: number }
  /** `until`: the next message id, where the reception interval closes. */
  | { type: 'UNSUBSCRIBE'; channelId: number; until: number }
  /** The cut-over to reception intervals: active subscriptions receive from `from` on. */
  | { type: 'CUT_OVER'; from: number }
  /** Deactivation: close every open interval at `until` (the next message id). */
  | { type: 'SUSPEND'; until: number }
  /** Reactivation: reopen an interval at `from` for every channel still subscribed. */
  | { type: 'RESUME'; from: number }
  | { type: 'SET_PROPERTY'; channelId: number; property: SubscriptionProperty; value: string | boolean | null }
  | { type: 'SET_TOPIC_VISIBILITY'; channelId: number; topic: string; topicKey: string; policy: VisibilityPolicy; at: number };

const newSubscription = (color: string, from: number): SubscriptionState => ({
  active: true,
  received: [from],
  color,
  isMuted: false,
  pinToTop: false,
  desktopNotifications: null,
  audibleNotifications: null,
  pushNotifications: null,
  emailNotifications: null,
  wildcardMentionsNotify: null,
});

/** Colours (a palette in practice). */
const colors = new Interner(1024);

/**
 * A restored subscription as one literal, like a new one: msgpackr's decoded objects grow their
 * fields one by one into a separate property array, and each carried its own colour string: for
 * the mixed bench's 155,000 subscriptions, two objects each that every major collection marks.
 */
function compactSubscription(state: SubscriptionState): SubscriptionState {
  const compact: SubscriptionState = {
    active: state.active,
    received: state.received,
    color: colors.get(state.color),
    isMuted: state.isMuted,
    pinToTop: state.pinToTop,
    desktopNotifications: state.desktopNotifications,
    audibleNotifications: state.audibleNotifications,
    pushNotifications: state.pushNotifications,
    emailNotifications: state.emailNotifications,
    wildcardMentionsNotify: state.wildcardMentionsNotify,
  };
  // Snapshots from before reception intervals have none until the cut-over: the key stays absent.
  if (state.received === undefined) delete compact.received;
  // Fields this version does not know are kept, so that the next snapshot written still has them.
  return withOtherFields(compact, state);
}

export const subscriptionsMachine = setup({
  types: {
    context: {} as SubscriptionsContext,
    input: {} as { userId: number },
    events: {} as SubscriptionsEvent,
  },
  actions: {
    subscribe: assign({
      channels: ({ context, event }) => {
        if (event.type !== 'SUBSCRIBE') return context.channels;
        const existing = context.channels[event.channelId];
        const next = existing
          ? withFields(existing, { active: true, received: openAt(existing.received ?? [], event.from) })
          : newSubscription(event.color, event.from);
        return withIdKey<SubscriptionState>(context.channels, event.channelId, next);
      },
    }),
    unsubscribe: assign({
      channels: ({ context, event }) => {
        if (event.type !== 'UNSUBSCRIBE') return context.channels;
        const existing = context.channels[event.channelId];
        if (!existing) return context.channels;
        return withIdKey<SubscriptionState>(context.channels, event.channelId, withFields(existing, { active: false, received: closeAt(existing.received ?? [], event.until) }));
      },
    }),
    cutOver: assign({
      channels: ({ context, event }) => {
        if (event.type !== 'CUT_OVER') return context.channels;
        const channels = idKeyedRecord<SubscriptionState>();
        for (const [id, state] of Object.entries(context.channels)) {
          channels[id] = state.received ? state : withFields(state, { received: state.active ? [event.from] : [] });
        }
        return channels;
      },
    }),
    suspend: assign(({ context, event }) => {
      if (event.type !== 'SUSPEND') return {};
      const channels = idKeyedRecord<SubscriptionState>();
      for (const [id, state] of Object.entries(context.channels)) channels[id] = withFields(state, { received: closeAt(state.received ?? [], event.until) });
      return { channels, suspended: true };
    }),
    resume: assign(({ context, event }) => {
      if (event.type !== 'RESUME') return {};
      const channels = idKeyedRecord<SubscriptionState>();
      for (const [id, state] of Object.entries(context.channels)) {
        channels[id] = state.active ? withFields(state, { received: openAt(state.received ?? [], event.from) }) : state;
      }
      return { channels, suspended: false };
    }),
    setProperty: assign({
      channels: ({ context, event }) => {
        if (event.type !== 'SET_PROPERTY') return context.channels;
        const existing = context.channels[event.channelId];
        if (!existing) return context.channels;
        return withIdKey<SubscriptionState>(context.channels, event.channelId, withFields(existing, { [SUBSCRIPTION_PROPERTIES[event.property]]: event.value }));
      },
    }),
    setTopicVisibility: assign({
      topics: ({ context, event }) => {
        if (event.type !== 'SET_TOPIC_VISIBILITY') return context.topics;
        const key = `${event.channelId}:${event.topicKey}`;
        const topics = { ...context.topics };
        if (event.policy === VisibilityPolicy.INHERIT) delete topics[key];
        else topics[key] = { channelId: event.channelId, topic: event.topic, policy: event.policy, lastUpdated: event.at };
        return topics;
      },
    }),
  },
}).createMachine({
  id: 'subscriptions',
  context: ({ input }) => ({ userId: input.userId, channels: idKeyedRecord<SubscriptionState>(), topics: {} }),
  initial: 'tracking',
  states: {
    tracking: {
      on: {
        SUBSCRIBE: { actions: 'subscribe' },
        UNSUBSCRIBE: { actions: 'unsubscribe' },
        CUT_OVER: { actions: 'cutOver' },
        SUSPEND: { actions: 'suspend' },
        RESUME: { actions: 'resume' },
        SET_PROPERTY: { actions: 'setProperty' },
        SET_TOPIC_VISIBILITY: { actions: 'setTopicVisibility' },
      },
    },
  },
});

export const subscriptionsKind: ActorKind<typeof subscriptionsMachine> = {
  name: 'subscriptions',
  machine: subscriptionsMachine,
  input: (id) => ({ userId: Number(id) }),
  // A decoded snapshot's channels record has array storage as long as its largest channel id;
  // each subscription is rebuilt in the shape of a new one (see compactSubscription).
  restored: (snapshot) => ({ ...snapshot, context: { ...snapshot.context, channels: copyIdKeyed(snapshot.context.channels, compactSubscription) } }),
};
