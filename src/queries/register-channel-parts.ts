/**
 * The organization-wide parts of POST /register kept serialised and encoded: the channels in
 * name order, `streams`, `never_subscribed` and `user_status`. Each is kept with the stamp of
 * the versions it was made from (channels, subscribers, users, the realm record, and for
 * `partial` subscribers the hour, as channel-json.ts), so any change to a channel, a
 * subscription, a user or the realm makes the next register build it again.
 *
 * `streams` and `never_subscribed` depend on the viewer only through which channels they list:
 * the list of ids is part of the stamp, and each channel's text is kept encoded on its own, so a
 * viewer with another list joins bytes instead of serialising and encoding the texts again.
 */
import type { ChannelRecord } from '../domain/channel-record.js';
import type { Services } from '../services.js';
import { recordNumber } from '../shared/record-number.js';
import { channelJson, channelsByName, neverSubscribedJson, type SubscriberMode } from './channel-json.js';
import { allStatuses } from './user-status.js';

// By channel directory (one per organization): its channels by name, at a version of the directory.
const ordered = new WeakMap<object, { version: number; channels: readonly ChannelRecord[] }>();

/** Every channel of the organization in Zulip's order (by name), sorted once per change of any channel. */
export function channelsInNameOrder(services: Services): readonly ChannelRecord[] {
  const directory = services.org.channels;
  const kept = ordered.get(directory);
  if (kept !== undefined && kept.version === directory.version) return kept.channels;
  const channels = [...directory.all()].sort(channelsByName);
  ordered.set(directory, { version: directory.version, channels });
  return channels;
}

/** What a channel's text depends on besides its record: subscribers, users, the realm, the hour (`partial`). */
function stampOf(services: Services, mode: SubscriberMode | 'streams'): string {
  const { org } = services;
  const hour = mode === 'partial' ? Math.floor(services.clock.now() / 3_600_000) : 0;
  return `${org.channels.version}:${services.subscriptions.subscribersVersion}:${org.users.version}:${recordNumber(org.realm)}:${hour}`;
}

// A channel's encoded text per variant, with its stamp (records are replaced, never mutated).
const pieces = new WeakMap<ChannelRecord, Map<string, { stamp: string; bytes: Buffer }>>();

function pieceOf(channel: ChannelRecord, variant: string, stamp: string, make: () => string): Buffer {
  let forms = pieces.get(channel);
  if (forms === undefined) pieces.set(channel, (forms = new Map()));
  const kept = forms.get(variant);
  if (kept !== undefined && kept.stamp === stamp) return kept.bytes;
  const bytes = Buffer.from(make());
  forms.set(variant, { stamp, bytes });
  return bytes;
}

const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/** `"name":[…]` of the channels' texts, kept whole while the stamp and the list of channels hold. */
function listPart(services: Services, name: string, mode: SubscriberMode | 'streams', channels: readonly ChannelRecord[], text: (channel: ChannelRecord) => string): Buffer {
  const cache = services.readCaches.registerTexts;
  const base = stampOf(services, mode);
  const stamp = `${base}|${channels.map((c) => c.id).join(',')}`;
  const key = `${name}:${String(mode)}`;
  const kept = cache.texts.get(key);
  if (kept !== undefined && kept.stamp === stamp) {
    cache.counts.reused++;
    return kept.json;
  }
  const parts: Buffer[] = [Buffer.from(`"${name}":[`)];
  channels.forEach((channel, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(pieceOf(channel, key, base, () => text(channel)));
  });
  parts.push(CLOSE);
  const json = Buffer.concat(parts);
  cache.texts.set(key, { stamp, json });
  cache.counts.built++;
  return json;
}

/** `"streams":[…]`: the channels the viewer can see, in name order (the caller picks them). */
export function streamsPart(services: Services, visible: readonly ChannelRecord[]): Buffer {
  return listPart(services, 'streams', 'streams', visible, (channel) => channelJson(services, channel));
}

/** `"never_subscribed":[…]`: the channels the viewer sees but never subscribed to, with the subscribers `mode` asks for. */
export function neverSubscribedPart(services: Services, channels: readonly ChannelRecord[], mode: SubscriberMode): Buffer {
  return listPart(services, 'never_subscribed', mode, channels, (channel) => neverSubscribedJson(services, channel, mode));
}

/** `"user_status":{…}`: every active user's status, the same for every viewer, kept while no user changes. */
export function userStatusPart(services: Services): Buffer {
  const cache = services.readCaches.registerTexts;
  const stamp = String(services.org.users.version);
  const kept = cache.texts.get('user_status');
  if (kept !== undefined && kept.stamp === stamp) {
    cache.counts.reused++;
    return kept.json;
  }
  const json = Buffer.from(`"user_status":${JSON.stringify(allStatuses(services))}`);
  cache.texts.set('user_status', { stamp, json });
  cache.counts.built++;
  return json;
}
