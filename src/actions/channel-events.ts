/**
 * What administering a channel tells others: `stream` `update` events to those who see the
 * channel, the events of a privacy change (Zulip's do_change_stream_permission), and the
 * notification bot's notices in the channel's "channel events" topic.
 */
import { CHANNEL_EVENTS_TOPIC } from '../domain/channel-admin.js';
import type { ChannelRecord } from '../domain/channel-record.js';
import type { GroupSettingValue } from '../domain/groups.js';
import type { UserRecord } from '../domain/users.js';
import { usersWhoSeeChannel } from '../queries/channel-access.js';
import { channelObject } from '../queries/subscription-format.js';
import type { Services } from '../services.js';
import type { Transaction } from '../store/transaction.js';
import { notify, silentMention } from './notifications.js';

/** `stream` `update` of one property, to everyone who sees the channel. */
export function emitUpdate(services: Services, tx: Transaction, channel: ChannelRecord, property: string, value: unknown): void {
  tx.emit({ type: 'stream', op: 'update', property, value, stream_id: channel.id, name: channel.name }, usersWhoSeeChannel(services, channel));
}

/** The notification bot's notice about the channel, in its "channel events" topic. */
export function channelNotice(services: Services, tx: Transaction, channel: ChannelRecord, content: string): void {
  notify(services, tx, { channel, topic: CHANNEL_EVENTS_TOPIC }, content);
}

/**
 * After a privacy change: those who now see a channel they did not see get it created, with its
 * subscribers (`peer_add`); those who saw it before get the `invite_only` update with the new
 * history and web-public values. Those who lose sight of it are told nothing more, as in Zulip.
 */
export function privacyEvents(services: Services, tx: Transaction, channel: ChannelRecord, seeingBefore: ReadonlySet<number>): void {
  const seeing = usersWhoSeeChannel(services, channel);
  const gaining = seeing.filter((id) => !seeingBefore.has(id));
  if (gaining.length > 0) {
    tx.emit(() => ({ type: 'stream', op: 'create', streams: [channelObject(services, channel)] }), gaining);
    const subscribers = [...services.subscriptions.subscribersOf(channel.id)].sort((a, b) => a - b);
    tx.emit({ type: 'subscription', op: 'peer_add', stream_ids: [channel.id], user_ids: subscribers }, gaining);
  }
  const told = new Set(gaining);
  tx.emit({
    op: 'update',
    type: 'stream',
    property: 'invite_only',
    value: channel.inviteOnly,
    history_public_to_subscribers: channel.historyPublicToSubscribers,
    is_web_public: channel.isWebPublic,
    stream_id: channel.id,
    name: channel.name,
  }, seeing.filter((id) => !told.has(id)));
}

/** Zulip's get_users_string_with_permission: a group's silent mention, or the groups then the users of an anonymous value, by id. */
function holdersText(services: Services, value: GroupSettingValue): string {
  const { org } = services;
  const groupMention = (id: number) => `@_*${org.groups.get(id)?.name ?? ''}*`;
  if (typeof value === 'number') return groupMention(value);
  const groups = [...value.direct_subgroups].sort((a, b) => a - b).map(groupMention);
  const users = [...value.direct_members].sort((a, b) => a - b).map((id) => org.users.get(id)).filter((user) => user !== undefined).map((user) => silentMention(user));
  return [...groups, ...users].join(', ');
}

/** Zulip's notice for a change of who may post. */
export function postingNotice(services: Services, tx: Transaction, actor: UserRecord, channel: ChannelRecord, before: GroupSettingValue, after: GroupSettingValue): void {
  channelNotice(services, tx, channel,
    `${silentMention(actor)} changed the [posting permissions](/help/channel-posting-policy) for this channel:\n\n`
    + `* **Old**: ${holdersText(services, before)}\n* **New**: ${holdersText(services, after)}`);
}
