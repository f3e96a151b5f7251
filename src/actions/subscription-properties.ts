/** A user's per-channel settings (colour, muting, notifications, pinning), with their `subscription` update events. */
import { SUBSCRIPTION_PROPERTIES, type SubscriptionProperty } from '../actors/subscriptions.js';
import { isHexColor } from '../domain/channels.js';
import { badRequest } from '../domain/errors.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import type { Transaction } from '../store/transaction.js';
import { accessChannelById } from '../queries/channel-access.js';

export interface PropertyChange {
  stream_id: number;
  property: string;
  value: unknown;
}

/** The nine properties the endpoint takes: the stored ones and the legacy inverse of muting. */
const PROPERTY_NAMES = new Set<string>([...Object.keys(SUBSCRIPTION_PROPERTIES), 'in_home_view']);

/** One change, checked in Zulip's order: the property, the channel, the subscription, then the value. */
export function applyProperty(services: Services, tx: Transaction, user: UserRecord, change: PropertyChange): void {
  const { stream_id: channelId, property, value } = change;
  if (!PROPERTY_NAMES.has(property)) throw badRequest(`Unknown subscription property: ${property}`);
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
  if (typeof value !== 'boolean') throw badRequest(`${property} is not a boolean`);
  if (property === 'in_home_view' || property === 'is_muted') {
    const muted = property === 'is_muted' ? value : !value;
    services.subscriptions.setProperty(user.id, channelId, 'is_muted', muted, tx);
    // Zulip sends both, the deprecated in_home_view first, so that old and new clients each see their property change.
    emit('in_home_view', !muted);
    emit('is_muted', muted);
    return;
  }
  services.subscriptions.setProperty(user.id, channelId, property as SubscriptionProperty, value, tx);
  emit(property, value);
}

/** Applies a list of property changes all together, or none of them. */
export function updateSubscriptionProperties(services: Services, user: UserRecord, changes: readonly PropertyChange[]): Promise<void> {
  return services.write((tx) => {
    for (const change of changes) applyProperty(services, tx, user, change);
  });
}
