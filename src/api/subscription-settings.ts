/**
 * Per-channel personal settings and topic visibility: `POST /users/me/subscriptions/properties`,
 * `PATCH /users/me/subscriptions/muted_topics` (deprecated) and `POST /user_topics`.
 */
import { SUBSCRIPTION_PROPERTIES, VisibilityPolicy, type SubscriptionProperty } from '../actors/subscriptions.js';
import { isHexColor } from '../domain/channels.js';
import { badRequest } from '../domain/errors.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../domain/realm.js';
import { normalizeTopic, topicKey } from '../domain/topics.js';
import type { UserRecord } from '../domain/users.js';
import { LIMITS } from '../domain/versions.js';
import type { ChannelRecord } from '../domain/channel-record.js';
import type { Services } from '../services.js';
import type { Transaction } from '../store/transaction.js';
import { transact } from './transact.js';
import { accessChannelById, channelVisible } from './channel-access.js';
import { setTopicPolicy } from './message-write.js';
import { me, type ApiRoute } from './route.js';

interface PropertyChange {
  stream_id: number;
  property: string;
  value: unknown;
}

function applyProperty(services: Services, tx: Transaction, user: UserRecord, change: PropertyChange): void {
  const { stream_id: channelId, property, value } = change;
  // As Zulip: a channel out of reach (or missing) is refused as such before subscription is looked at.
  accessChannelById(services, user, channelId);
  if (!services.subscriptions.isSubscribed(user.id, channelId)) throw badRequest(`Not subscribed to channel ID ${channelId}`);
  const emit = (name: string, v: unknown) => tx.emit({ type: 'subscription', op: 'update', stream_id: channelId, property: name, value: v }, [user.id]);
  if (property === 'color') {
    if (typeof value !== 'string' || !isHexColor(value)) throw badRequest('color is not a valid hex color code');
    services.subscriptions.setProperty(user.id, channelId, 'color', value, tx);
    emit('color', value);
    return;
  }
  if (property === 'in_home_view' || property === 'is_muted') {
    if (typeof value !== 'boolean') throw badRequest(`${property} is not a boolean`);
    const muted = property === 'is_muted' ? value : !value;
    services.subscriptions.setProperty(user.id, channelId, 'is_muted', muted, tx);
    // Zulip sends both, so that old and new clients each see their property change.
    emit('is_muted', muted);
    emit('in_home_view', !muted);
    return;
  }
  if (!(property in SUBSCRIPTION_PROPERTIES)) throw badRequest(`Unknown subscription property: ${property}`);
  if (typeof value !== 'boolean') throw badRequest(`${property} is not a boolean`);
  services.subscriptions.setProperty(user.id, channelId, property as SubscriptionProperty, value, tx);
  emit(property, value);
}

/** Sets a topic's visibility for the user; no event when nothing changes. */
function setVisibility(services: Services, tx: Transaction, user: UserRecord, channel: ChannelRecord, rawTopic: string, policy: number): void {
  const topic = normalizeTopic(rawTopic, { maxLength: LIMITS.maxTopicLength, emptyTopicDisplayName: EMPTY_TOPIC_DISPLAY_NAME });
  if (services.subscriptions.topicPolicy(user.id, channel.id, topicKey(topic)) === policy) return;
  setTopicPolicy(services, tx, user.id, channel.id, topic, policy);
}

export function subscriptionSettingRoutes(services: Services): ApiRoute[] {
  const { org } = services;
  return [
    {
      method: 'POST',
      path: '/users/me/subscriptions/properties',
      schema: 'update-subscription-settings',
      auth: 'user',
      handler: (request) => {
        const user = me(request);
        return transact(services, (tx) => {
          for (const change of request.params.subscription_data as PropertyChange[]) applyProperty(services, tx, user, change);
        });
      },
    },
    {
      method: 'PATCH',
      path: '/users/me/subscriptions/muted_topics',
      schema: 'mute-topic',
      auth: 'user',
      handler: async (request) => {
        const user = me(request);
        const p = request.params;
        if (p.stream_id !== undefined && p.stream !== undefined) throw badRequest("Please choose one: 'stream' or 'stream_id'.");
        let channel: ChannelRecord;
        if (p.stream_id !== undefined) channel = accessChannelById(services, user, p.stream_id);
        else if (p.stream !== undefined) {
          const found = org.channels.byName(String(p.stream).trim());
          if (!found || !channelVisible(services, user, found)) throw badRequest(`Invalid channel name '${p.stream}'`);
          channel = found;
        } else throw badRequest("Please supply 'stream'.");
        return transact(services, (tx) => setVisibility(services, tx, user, channel, p.topic, p.op === 'add' ? VisibilityPolicy.MUTED : VisibilityPolicy.INHERIT));
      },
    },
    {
      method: 'POST',
      path: '/user_topics',
      schema: 'update-user-topic',
      auth: 'user',
      handler: (request) => {
        const user = me(request);
        const p = request.params;
        const channel = accessChannelById(services, user, p.stream_id);
        return transact(services, (tx) => setVisibility(services, tx, user, channel, p.topic, p.visibility_policy));
      },
    },
  ];
}
