/**
 * Channel objects of POST /register (`streams`, `never_subscribed`) serialised once per channel
 * record and subscriber count, and the subscriber lists `include_subscribers` asks for, cut as
 * Zulip cuts them for `partial`.
 */
import type { ChannelRecord } from '../domain/channel-record.js';
import { isLongTermIdle, MIN_PARTIAL_SUBSCRIBERS_CHANNEL_SIZE } from '../domain/long-term-idle.js';
import type { Services } from '../services.js';
import { channelObject } from './subscription-format.js';

/** How subscribers are listed: none, all of them, or Zulip's `partial`. */
export type SubscriberMode = false | true | 'partial';

// Channel records are replaced, never mutated, on change; the count and the realm's system
// groups (which the object names) are checked on each use.
const texts = new WeakMap<ChannelRecord, { count: number; groups: object; json: string }>();

/** The channel object as JSON (shared by every viewer). */
export function channelJson(services: Services, channel: ChannelRecord): string {
  const count = services.subscriptions.subscribersOf(channel.id).size;
  const groups = services.org.realm.systemGroups;
  const kept = texts.get(channel);
  if (kept !== undefined && kept.count === count && kept.groups === groups) return kept.json;
  const json = JSON.stringify(channelObject(services, channel));
  texts.set(channel, { count, groups, json });
  return json;
}

/**
 * The subscriber field to add to a channel object: `subscribers` with every id, or for `partial`
 * and a channel of MIN_PARTIAL_SUBSCRIBERS_CHANNEL_SIZE or more, `partial_subscribers` with the
 * bots and the users who are not long-term idle (Zulip's rule).
 */
export function subscriberField(services: Services, ids: readonly number[], mode: SubscriberMode): ['subscribers' | 'partial_subscribers', number[]] {
  if (mode !== 'partial' || ids.length < MIN_PARTIAL_SUBSCRIBERS_CHANNEL_SIZE) return ['subscribers', [...ids]];
  const now = Math.floor(services.clock.now() / 1000);
  const { users } = services.org;
  const kept = ids.filter((id) => {
    const user = users.get(id);
    return user !== undefined && (user.isBot || !isLongTermIdle(services.presence.get(id)?.lastConnected, user.dateJoined, now));
  });
  return ['partial_subscribers', kept];
}

// A channel's subscriber field by mode, with its JSON; valid while no subscription or user
// changed (and, for `partial`, within the hour: who is idle moves with the clock).
const fields = new WeakMap<ChannelRecord, Map<SubscriberMode, { stamp: string; field: ['subscribers' | 'partial_subscribers', number[]]; json: string }>>();

/** Every subscriber of the channel, as the field `mode` asks for (shared: read, never change it). */
export function allSubscribersField(services: Services, channel: ChannelRecord, mode: 'partial' | true): { field: ['subscribers' | 'partial_subscribers', number[]]; json: string } {
  const hour = mode === 'partial' ? Math.floor(services.clock.now() / 3_600_000) : 0;
  const stamp = `${services.subscriptions.subscribersVersion}:${services.org.users.version}:${hour}`;
  let forms = fields.get(channel);
  if (!forms) fields.set(channel, (forms = new Map()));
  let kept = forms.get(mode);
  if (kept === undefined || kept.stamp !== stamp) {
    const field = subscriberField(services, [...services.subscriptions.subscribersOf(channel.id)].sort((a, b) => a - b), mode);
    kept = { stamp, field, json: `${JSON.stringify(field[0])}:${JSON.stringify(field[1])}` };
    forms.set(mode, kept);
  }
  return kept;
}

/** A channel the viewer never subscribed to, as JSON with the subscriber field `mode` asks for. */
export function neverSubscribedJson(services: Services, channel: ChannelRecord, mode: SubscriberMode): string {
  const json = channelJson(services, channel);
  if (mode === false) return json;
  // A private channel's subscribers are not shown to those outside it.
  const field = channel.inviteOnly ? '"subscribers":[]' : allSubscribersField(services, channel, mode).json;
  return `${json.slice(0, -1)},${field}}`;
}

/** Channels in Zulip's order: by name as Python compares strings (by code point). */
export const channelsByName = (a: ChannelRecord, b: ChannelRecord) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
