/**
 * Default channels (Zulip's DefaultStream): new users are subscribed to them. `POST` and
 * `DELETE /default_streams`, and the `default_streams` event every active non-guest user gets.
 */
import { requireAdministrator } from '../domain/channel-admin.js';
import type { ChannelRecord } from '../domain/channel-record.js';
import { badRequest } from '../domain/errors.js';
import { isGuest } from '../domain/roles.js';
import type { UserRecord } from '../domain/users.js';
import { accessChannelById, seeChannelById } from '../queries/channel-access.js';
import { defaultChannelIds } from '../queries/channel-members.js';
import type { Services } from '../services.js';
import type { Transaction } from '../store/transaction.js';


/** Makes the channel default or not, with the `default_streams` event; returns the saved record. */
export function setDefaultChannel(services: Services, tx: Transaction, channel: ChannelRecord, isDefault: boolean): ChannelRecord {
  const updated = { ...channel, isDefault };
  services.org.channels.save(updated, tx);
  const audience = [...services.org.users.all()].filter((user) => user.isActive && !user.isSystemBot && !isGuest(user.role)).map((user) => user.id);
  tx.emit(() => ({ type: 'default_streams', default_streams: defaultChannelIds(services) }), audience);
  return updated;
}

/** `POST /default_streams`: an active channel the administrator may read, never a private one. */
export function addDefaultChannel(services: Services, actor: UserRecord, channelId: number): Promise<void> {
  requireAdministrator(actor.role);
  return services.write((tx) => {
    const channel = accessChannelById(services, actor, channelId);
    if (channel.isArchived) throw badRequest('Invalid channel ID');
    if (channel.inviteOnly) throw badRequest('Private channels cannot be made default.');
    if (!channel.isDefault) setDefaultChannel(services, tx, channel, true);
  });
}

/** `DELETE /default_streams`: any active channel the administrator knows of. */
export function removeDefaultChannel(services: Services, actor: UserRecord, channelId: number): Promise<void> {
  requireAdministrator(actor.role);
  return services.write((tx) => {
    const channel = seeChannelById(services, actor, channelId);
    if (channel.isArchived) throw badRequest('Invalid channel ID');
    setDefaultChannel(services, tx, channel, false);
  });
}
