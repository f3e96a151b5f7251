/**
 * Archiving a channel (`DELETE /streams/{stream_id}`, Zulip's do_deactivate_stream): the record
 * stays with its subscriptions and messages, it stops being a default channel and the
 * organization's channel settings that named it, and it is announced as Zulip does at feature
 * level 378 and later: an `is_archived` update for queues with the `archived_channels`
 * capability, a `delete` for the others.
 */
import { badRequest } from '../domain/errors.js';
import type { UserRecord } from '../domain/users.js';
import { usersWhoSeeChannel } from '../queries/channel-access.js';
import { everyone } from '../queries/people.js';
import type { Services } from '../services.js';
import type { Transaction } from '../store/transaction.js';
import { administeredChannel } from './channel-admin.js';
import { channelNotice } from './channel-events.js';
import { setDefaultChannel } from './default-channels.js';

/** Organization settings naming a channel; an archived channel is taken out of them (-1). */
const CHANNEL_VALUED_REALM_SETTINGS = [
  'moderation_request_channel_id',
  'new_stream_announcements_stream_id',
  'signup_announcements_stream_id',
  'zulip_update_announcements_stream_id',
];

function releaseRealmSettings(services: Services, tx: Transaction, channelId: number): void {
  const { org } = services;
  const released = CHANNEL_VALUED_REALM_SETTINGS.filter((name) => org.realm.settings[name] === channelId);
  if (released.length === 0) return;
  const data = Object.fromEntries(released.map((name) => [name, -1]));
  org.saveRealm({ ...org.realm, settings: { ...org.realm.settings, ...data } }, tx);
  tx.emit({ type: 'realm', op: 'update_dict', property: 'default', data }, everyone(services));
}

export function archiveChannel(services: Services, actor: UserRecord, channelId: number): Promise<void> {
  return services.write((tx) => {
    let channel = administeredChannel(services, actor, channelId);
    if (channel.isArchived) throw badRequest('Channel is already deactivated');
    // Those who saw it before: the channel's audience does not change by archiving, but is read first as Zulip does.
    const seeing = usersWhoSeeChannel(services, channel);
    channel = { ...channel, isArchived: true };
    services.org.channels.save(channel, tx);
    releaseRealmSettings(services, tx, channel.id);
    if (channel.isDefault) channel = setDefaultChannel(services, tx, channel, false);
    tx.emit({ type: 'stream', op: 'update', stream_id: channel.id, name: channel.name, property: 'is_archived', value: true, for_archived_channels: true }, seeing);
    tx.emit({ type: 'stream', op: 'delete', streams: [{ stream_id: channel.id }], stream_ids: [channel.id], for_archived_channels: false }, seeing);
    channelNotice(services, tx, channel, `Channel #**${channel.name}** has been archived.`);
  });
}
