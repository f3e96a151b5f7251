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

export function applyProperty(services: Services, tx: Transaction, user: UserRecord, change: PropertyChange): void {
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

/** Applies a list of property changes all together, or none of them. */
export function updateSubscriptionProperties(services: Services, user: UserRecord, changes: readonly PropertyChange[]): Promise<void> {
  return services.write((tx) => {
    for (const change of changes) applyProperty(services, tx, user, change);
  });
}
