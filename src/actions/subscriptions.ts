/**
 * Writes of channels and subscriptions, with the events they produce: creating a channel,
 * subscribing and unsubscribing users.
 */
import { defaultChannelSettings, type ChannelRecord } from '../domain/channel-record.js';
import { pickChannelColor } from '../domain/channels.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import { unixSeconds } from '../services.js';
import type { Transaction } from '../store/transaction.js';
import { channelReadable, channelVisible, usersWhoSeeChannel } from '../queries/channel-access.js';
import { channelObject, subscriptionObject } from '../queries/subscription-format.js';

export interface NewChannel {
  name: string;
  description: string;
  inviteOnly: boolean;
  isDefault?: boolean;
  historyPublicToSubscribers?: boolean;
  creatorId: number | null;
}

export function createChannel(services: Services, tx: Transaction, spec: NewChannel): ChannelRecord {
  const { org, counters } = services;
  const channel: ChannelRecord = {
    id: counters.nextRealmId(org.id, 'channel', tx),
    name: spec.name,
    description: spec.description,
    renderedDescription: spec.description ? services.render(spec.description).html : '',
    inviteOnly: spec.inviteOnly,
    isWebPublic: false,
    // Public channels always share their history; private ones do not unless asked.
    historyPublicToSubscribers: spec.inviteOnly ? (spec.historyPublicToSubscribers ?? false) : true,
    isDefault: spec.isDefault ?? false,
    isArchived: false,
    dateCreated: unixSeconds(services.clock),
    creatorId: spec.creatorId,
    recipientId: counters.nextRealmId(org.id, 'recipient', tx),
    firstMessageId: null,
    messageRetentionDays: null,
    topicsPolicy: 'inherit',
    settings: defaultChannelSettings(org.realm.systemGroups, spec.creatorId),
  };
  org.channels.save(channel, tx);
  tx.emit({ type: 'stream', op: 'create', streams: [channelObject(services, channel)] }, usersWhoSeeChannel(services, channel));
  return channel;
}

/**
 * Subscribes each user to each channel; returns, per user id, the names newly and already
 * subscribed. A colour asked for (by channel id) wins over the palette for new subscriptions.
 */
export function subscribeUsers(
  services: Services,
  tx: Transaction,
  users: readonly UserRecord[],
  channels: readonly ChannelRecord[],
  colors: ReadonlyMap<number, string> = new Map(),
) {
  const subscribed: Record<string, string[]> = {};
  const alreadySubscribed: Record<string, string[]> = {};
  const added = new Map<number, number[]>(); // channel id → newly subscribed user ids
  for (const user of users) {
    for (const channel of channels) {
      const book = services.subscriptions;
      if (book.isSubscribed(user.id, channel.id)) {
        (alreadySubscribed[user.id] ??= []).push(channel.name);
        continue;
      }
      const used = Object.values(book.channelsOf(user.id)).map((s) => s.color);
      book.subscribe(user.id, channel.id, colors.get(channel.id) ?? pickChannelColor(used, channel.recipientId), tx);
      (subscribed[user.id] ??= []).push(channel.name);
      let list = added.get(channel.id);
      if (!list) added.set(channel.id, (list = []));
      list.push(user.id);
    }
  }
  for (const [channelId, userIds] of added) {
    const channel = services.org.channels.get(channelId)!;
    // New subscribers may read the channel, so they all see the same subscriber list.
    let subscribers: number[] | undefined;
    for (const userId of userIds) {
      const user = services.org.users.get(userId)!;
      const state = services.subscriptions.subscription(userId, channelId)!;
      tx.emit(() => {
        subscribers ??= [...services.subscriptions.subscribersOf(channelId)].sort((a, b) => a - b);
        const format = { includeSubscribers: true, notificationSettingsNull: false, subscribers };
        return { type: 'subscription', op: 'add', subscriptions: [subscriptionObject(services, user, channel, state, format)] };
      }, [userId]);
    }
    const newcomers = new Set(userIds);
    const peers = peersOf(services, channel).filter((id) => !newcomers.has(id));
    tx.emit({ type: 'subscription', op: 'peer_add', stream_ids: [channelId], user_ids: userIds }, peers);
  }
  return { subscribed, alreadySubscribed };
}

/** Unsubscribes; returns the names removed and those the user was not subscribed to (one entry per user and channel). */
export function unsubscribeUsers(services: Services, tx: Transaction, users: readonly UserRecord[], channels: readonly ChannelRecord[]) {
  const removed: string[] = [];
  const notRemoved: string[] = [];
  for (const channel of channels) {
    const gone: number[] = [];
    for (const user of users) {
      if (!services.subscriptions.isSubscribed(user.id, channel.id)) {
        notRemoved.push(channel.name);
        continue;
      }
      services.subscriptions.unsubscribe(user.id, channel.id, tx);
      removed.push(channel.name);
      gone.push(user.id);
      tx.emit({ type: 'subscription', op: 'remove', subscriptions: [{ name: channel.name, stream_id: channel.id }] }, [user.id]);
    }
    if (gone.length > 0) {
      const leaving = new Set(gone);
      const peers = peersOf(services, channel).filter((id) => !leaving.has(id));
      tx.emit({ type: 'subscription', op: 'peer_remove', stream_ids: [channel.id], user_ids: gone }, peers);
    }
  }
  return { removed, notRemoved };
}

/** Users told about changes to a channel's subscribers: those who can see them. */
function peersOf(services: Services, channel: ChannelRecord): number[] {
  const ids: number[] = [];
  for (const user of services.org.users.all()) {
    if (!user.isActive || user.isSystemBot) continue;
    if (channelVisible(services, user, channel) && channelReadable(services, user, channel)) ids.push(user.id);
  }
  return ids;
}
