/**
 * Writes of channels and subscriptions, with the events they produce: creating a channel,
 * subscribing and unsubscribing users.
 */
import { mayAddSubscribers, mayCreateChannel, mayRemoveSubscribers, maySubscribe, refusalError } from '../domain/permissions.js';
import { defaultChannelSettings, type ChannelRecord } from '../domain/channel-record.js';
import { pickChannelColor } from '../domain/channels.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import { unixSeconds } from '../services.js';
import type { Transaction } from '../store/transaction.js';
import { channelReadable, channelVisible, usersWhoSeeChannel } from '../queries/channel-access.js';
import { channelObject, subscriptionObject } from '../queries/subscription-format.js';
import { checkChannelName, isHexColor } from '../domain/channels.js';
import { badRequest } from '../domain/errors.js';
import { codePointLength } from '../domain/topics.js';
import { LIMITS } from '../domain/versions.js';

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
export function peersOf(services: Services, channel: ChannelRecord): number[] {
  const ids: number[] = [];
  for (const user of services.org.users.all()) {
    if (!user.isActive || user.isSystemBot) continue;
    if (channelVisible(services, user, channel) && channelReadable(services, user, channel)) ids.push(user.id);
  }
  return ids;
}

export interface SubscriptionRequest {
  name: string;
  description?: string;
  color?: string;
}

function resolvePrincipals(services: Services, principals: (string | number)[] | undefined, self: UserRecord): UserRecord[] {
  if (principals === undefined) return [self];
  if (principals.length === 0) throw badRequest('principals cannot be blank');
  return principals.map((principal) => {
    const user = typeof principal === 'number' ? services.org.users.get(principal) : services.org.users.byEmail(principal);
    if (!user || !user.isActive || user.isSystemBot) throw badRequest('No such user');
    return user;
  });
}

export interface SubscribeOptions {
  inviteOnly: boolean;
  isDefault: boolean;
  historyPublicToSubscribers?: boolean;
  authorizationErrorsFatal: boolean;
}

/** Subscribes in `tx` (creating missing channels); shared by POST and the legacy PATCH. */
function subscribeIn(services: Services, tx: Transaction, actor: UserRecord, requests: SubscriptionRequest[], principals: (string | number)[] | undefined, options: SubscribeOptions) {
  const guestRefusal = maySubscribe(actor);
  if (guestRefusal) throw refusalError(guestRefusal);
  const { org } = services;
  const channels: ChannelRecord[] = [];
  const created = new Set<number>();
  const unauthorized: string[] = [];
  const colors = new Map<number, string>();
  for (const [index, request] of requests.entries()) {
    const name = checkChannelName(request.name, LIMITS.maxStreamNameLength);
    const description = (request.description ?? '').replace(/\n/g, ' ');
    if (codePointLength(description) > LIMITS.maxStreamDescriptionLength) {
      throw badRequest(`subscriptions[${index}]["description"] is too long (limit: ${LIMITS.maxStreamDescriptionLength} characters)`);
    }
    if (request.color !== undefined && !isHexColor(request.color)) {
      throw badRequest(`subscriptions[${index}]["color"] is not a valid hex color code`);
    }
    let channel = org.channels.byName(name);
    if (!channel) {
      const refusal = mayCreateChannel(actor, org.realm, org.groups, { inviteOnly: options.inviteOnly, isDefault: options.isDefault });
      if (refusal) throw refusalError(refusal);
      channel = createChannel(services, tx, {
        name,
        description,
        inviteOnly: options.inviteOnly,
        isDefault: options.isDefault,
        historyPublicToSubscribers: options.historyPublicToSubscribers,
        creatorId: actor.id,
      });
      created.add(channel.id);
    } else if (!channelReadable(services, actor, channel)) {
      if (options.authorizationErrorsFatal) throw badRequest(`Unable to access channel (${channel.name}).`);
      unauthorized.push(channel.name);
      continue;
    }
    if (!channels.some((c) => c.id === channel!.id)) channels.push(channel);
    if (request.color !== undefined) colors.set(channel.id, request.color);
  }
  const users = resolvePrincipals(services, principals, actor);
  const addRefusal = mayAddSubscribers(actor, org.realm, org.groups, { principals: users, includesExistingChannel: channels.some((channel) => !created.has(channel.id)) });
  if (addRefusal) throw refusalError(addRefusal);
  const result = subscribeUsers(services, tx, users, channels, colors);
  const response: Record<string, unknown> = { subscribed: result.subscribed, already_subscribed: result.alreadySubscribed };
  if (!options.authorizationErrorsFatal) response.unauthorized = unauthorized;
  return response;
}

/** Unsubscribes in `tx`; shared by DELETE and the legacy PATCH. */
function unsubscribeIn(services: Services, tx: Transaction, actor: UserRecord, names: string[], principals: (string | number)[] | undefined) {
  const { org } = services;
  const missing = names.filter((name) => !org.channels.byName(name.trim()));
  if (missing.length > 0) throw badRequest(`Channel(s) (${missing.join(', ')}) do not exist`);
  const channels = names.map((name) => org.channels.byName(name.trim())!);
  const users = resolvePrincipals(services, principals, actor);
  const removeRefusal = mayRemoveSubscribers(actor, users);
  if (removeRefusal) throw refusalError(removeRefusal);
  const result = unsubscribeUsers(services, tx, users, channels);
  return { removed: result.removed, not_removed: result.notRemoved };
}

/** `POST /users/me/subscriptions`: subscribe, creating missing channels, in one write. */
export function subscribe(services: Services, actor: UserRecord, requests: SubscriptionRequest[], principals: (string | number)[] | undefined, options: SubscribeOptions) {
  return services.write((tx) => subscribeIn(services, tx, actor, requests, principals, options));
}

/** `DELETE /users/me/subscriptions`, in one write. */
export function unsubscribe(services: Services, actor: UserRecord, names: string[], principals: (string | number)[] | undefined) {
  return services.write((tx) => unsubscribeIn(services, tx, actor, names, principals));
}

/** The legacy `PATCH /users/me/subscriptions`: additions and removals in one write, so a refused removal also undoes the additions. */
export function updateSubscriptions(
  services: Services,
  actor: UserRecord,
  add: SubscriptionRequest[] | undefined,
  remove: string[] | undefined,
  principals: (string | number)[] | undefined,
  options: SubscribeOptions,
) {
  return services.write((tx) => {
    const response: Record<string, unknown> = {};
    if (add?.length) Object.assign(response, subscribeIn(services, tx, actor, add, principals, options));
    if (remove?.length) Object.assign(response, unsubscribeIn(services, tx, actor, remove, principals));
    return response;
  });
}
