/**
 * Scheduled messages checked ahead: the message `prepareMessage` built when an item was
 * scheduled, reused at delivery while nothing it read has changed, so that a burst due in one
 * second does not run the rules of `POST /messages` again message by message. What it read is
 * stamped before it ran: the render stamp (users, groups, uploads, custom emoji, the realm), the
 * channel record, and whether the sender (and a bot's owner) were subscribed. At delivery the
 * item must still be the same record, every stamp must match, and the channel may differ only
 * by its first message id (set by the first message sent to it, which the rules do not read);
 * anything else, and the message is checked again from scratch. Private channels and messages
 * with wildcard mentions (whose rules read subscriber counts and topic participants, which
 * every message changes) and messages with channel links are never kept. In memory only: after a restart delivery checks again.
 */
import type { ChannelRecord } from '../domain/channel-record.js';
import type { ScheduledMessageRecord } from '../domain/scheduled-messages.js';
import type { UserRecord } from '../domain/users.js';
import { dropRender, renderStamp } from '../queries/scheduled-render.js';
import type { Services } from '../services.js';
import type { OutgoingMessage } from './message-send.js';
import { withFields } from '../shared/with-fields.js';

/** What a check read, taken before it ran. */
export interface SendStamp {
  render: string;
  /** The channel of a channel message (undefined: a direct message). */
  channel: ChannelRecord | undefined;
  subscribed: boolean;
  ownerSubscribed: boolean;
}

interface KeptSend {
  record: ScheduledMessageRecord;
  stamp: SendStamp;
  out: OutgoingMessage;
}

/** Per organization's services: scheduled id → the message checked ahead. */
const keptByServices = new WeakMap<Services, Map<number, KeptSend>>();

function keptOf(services: Services): Map<number, KeptSend> {
  let kept = keptByServices.get(services);
  if (!kept) keptByServices.set(services, (kept = new Map()));
  return kept;
}

function subscribedFlags(services: Services, sender: UserRecord, channelId: number): Pick<SendStamp, 'subscribed' | 'ownerSubscribed'> {
  const { subscriptions } = services;
  return {
    subscribed: subscriptions.isSubscribed(sender.id, channelId),
    ownerSubscribed: sender.botOwnerId !== null && subscriptions.isSubscribed(sender.botOwnerId, channelId),
  };
}

/** The stamp of the state a check of `sender`'s message to `channelId` (undefined: direct) is about to read. */
export function sendStamp(services: Services, sender: UserRecord, channelId: number | undefined): SendStamp {
  const channel = channelId === undefined ? undefined : services.org.channels.get(channelId);
  const flags = channel ? subscribedFlags(services, sender, channel.id) : { subscribed: false, ownerSubscribed: false };
  return { render: renderStamp(services), channel, ...flags };
}

/** Keeps the message checked for scheduled item `id` (once its record is stored). */
export function keepSend(services: Services, id: number, out: OutgoingMessage, stamp: SendStamp): void {
  const record = services.scheduled.get(id);
  if (!record || record.kind !== 'send' || out.rendered.streamWildcard || out.rendered.topicWildcard) return;
  // A channel link's render reads channels, which the render stamp leaves out (see queries/scheduled-render.ts).
  if (out.content.includes('#**')) return;
  const { destination } = out;
  if (destination.type === 'stream' && (destination.channel !== stamp.channel || destination.channel.inviteOnly)) return;
  // The record must be the one this check was made for (not one edited meanwhile).
  if (record.content !== out.content || !sameAddress(record, out)) return;
  keptOf(services).set(id, { record, stamp, out });
}

/** Whether item `id` has a message checked ahead (tests). */
export function hasKeptSend(services: Services, id: number): boolean {
  return keptByServices.get(services)?.has(id) ?? false;
}

function sameAddress(record: ScheduledMessageRecord, { destination, sender }: OutgoingMessage): boolean {
  if (destination.type === 'stream') return record.type === 'stream' && record.channelId === destination.channel.id && record.topic === destination.topic;
  const ids = new Set([sender.id, ...(record.userIds ?? [])]);
  return record.type === 'private' && destination.participants.length === ids.size && destination.participants.every((user) => ids.has(user.id));
}

export function dropSend(services: Services, id: number): void {
  keptByServices.get(services)?.delete(id);
}

/** Item `id` is gone (sent, or deleted by its owner): what was prepared for it when scheduled goes too. */
export function forgetPrepared(services: Services, id: number): void {
  dropRender(services, id);
  dropSend(services, id);
}

/**
 * The last two records compared and the answer. Records are replaced, never changed in place, so
 * the answer holds while both are the same objects: a burst to one channel compares the channel
 * of now with the one stamped for every item, field by field (profiled at ~8% of its CPU).
 */
let lastCompared: { a: ChannelRecord; b: ChannelRecord; same: boolean } | undefined;

/** Equal records but for the first message id (records are replaced, never changed in place). */
function sameButFirstMessage(a: ChannelRecord, b: ChannelRecord): boolean {
  if (a === b) return true;
  if (lastCompared?.a === a && lastCompared.b === b) return lastCompared.same;
  const fields = Object.keys(a) as (keyof ChannelRecord)[];
  const same = fields.length === Object.keys(b).length && fields.every((field) => field === 'firstMessageId' || a[field] === b[field]);
  lastCompared = { a, b, same };
  return same;
}

/** The message checked ahead for `record`, as it is sent now; undefined when it must be checked again. */
export function keptSend(services: Services, record: ScheduledMessageRecord, sender: UserRecord): OutgoingMessage | undefined {
  const kept = keptByServices.get(services)?.get(record.id);
  if (!kept || kept.record !== record || kept.out.sender !== sender || kept.stamp.render !== renderStamp(services)) return undefined;
  const { out, stamp } = kept;
  const { client, readBySender } = record;
  if (out.destination.type !== 'stream') return withFields(out, { client, readBySender });
  const channel = services.org.channels.get(out.destination.channel.id);
  if (!channel || !stamp.channel || !sameButFirstMessage(channel, stamp.channel)) return undefined;
  const flags = subscribedFlags(services, sender, channel.id);
  if (flags.subscribed !== stamp.subscribed || flags.ownerSubscribed !== stamp.ownerSubscribed) return undefined;
  // One copy of the message, with the channel of now (the stamped one may differ by its first message id).
  return withFields(out, { client, readBySender, destination: withFields(out.destination, { channel }) });
}
