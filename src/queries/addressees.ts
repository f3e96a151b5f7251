/** Who a message is addressed to: the channel or the users named by a `to` parameter, with Zulip errors. */
import { channelVisible } from './channel-access.js';
import type { ChannelRecord } from '../domain/channel-record.js';
import { ApiError, badRequest } from '../domain/errors.js';
import { escapeAsDjango } from '../domain/html.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';


/** Finds the channel `to` names (a name, an id, or a one-element JSON list of either). */
/**
 * Finds the channel `to` names (a name, an id, or a one-element JSON list of either) for `sender`.
 * A private channel the sender may not know of (nor, for a bot, its owner) is answered as missing, so
 * that no refusal confirms a private channel's id or name.
 */
export function channelFromTo(services: Services, to: unknown, sender: UserRecord): ChannelRecord {
  let target = to;
  if (target === undefined || target === '' || (Array.isArray(target) && target.length === 0)) throw badRequest('Missing channel');
  if (Array.isArray(target)) {
    if (target.length !== 1) throw badRequest('Expected exactly one channel');
    target = target[0];
  }
  const known = (channel: ChannelRecord | undefined) => {
    if (!channel || !channel.inviteOnly || channelVisible(services, sender, channel)) return channel;
    const owner = sender.botOwnerId === null ? undefined : services.org.users.get(sender.botOwnerId);
    return owner && channelVisible(services, owner, channel) ? channel : undefined;
  };
  if (typeof target === 'number' && Number.isInteger(target)) {
    const channel = known(services.org.channels.get(target));
    if (!channel) throw new ApiError('STREAM_DOES_NOT_EXIST', `Channel with ID '${target}' does not exist`, 400, { stream_id: target });
    return channel;
  }
  if (typeof target !== 'string') throw badRequest('Invalid data type for channel');
  const name = target.trim();
  const channel = known(services.org.channels.byName(name));
  if (!channel) throw new ApiError('STREAM_DOES_NOT_EXIST', `Channel '${escapeAsDjango(name)}' does not exist`, 400, { stream: escapeAsDjango(name) });
  return channel;
}

/** Finds the users `to` names: a list of ids, a list of emails, or emails separated by commas. */
export function usersFromTo(services: Services, to: unknown): UserRecord[] {
  let data = to;
  if (data === undefined) data = [];
  if (typeof data === 'string') data = data.split(',');
  if (!Array.isArray(data)) throw badRequest('Invalid data type for recipients');
  const { users } = services.org;
  if (data.length === 0) return [];
  if (typeof data[0] === 'string') {
    if (!data.every((item) => typeof item === 'string')) throw badRequest('Recipient lists may contain emails or user IDs, but not both.');
    const emails = [...new Set((data as string[]).map((e) => e.trim()).filter(Boolean))];
    return emails.map((email) => {
      const user = users.byEmail(email);
      if (!user) throw badRequest(`Invalid email '${email}'`);
      return user;
    });
  }
  if (typeof data[0] === 'number') {
    if (!data.every((item) => typeof item === 'number' && Number.isInteger(item))) throw badRequest('Recipient lists may contain emails or user IDs, but not both.');
    return [...new Set(data as number[])].map((id) => {
      const user = users.get(id);
      if (!user) throw badRequest(`Invalid user ID ${id}`);
      return user;
    });
  }
  throw badRequest('Invalid data type for recipients');
}
