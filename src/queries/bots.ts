/** Reads about bots shared by the bot views and actions: who administers a bot, the register state, lookups. */
import { botObject, mayAdministerBot, type BotView } from '../domain/bots.js';
import { badRequest } from '../domain/errors.js';
import { isAdmin } from '../domain/roles.js';
import type { ChannelRecord } from '../domain/channel-record.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import { channelReadable } from './channel-access.js';

export function botView(services: Services): BotView {
  const { org } = services;
  return { host: org.host, realmUrl: org.url, channelName: (id) => (id == null ? null : (org.channels.get(id)?.name ?? null)) };
}

/**
 * Zulip's `bot_owner_user_ids`: who hears `realm_bot` events about a bot. A bot whose default
 * channels include a private one is its owner's business alone; otherwise the administrators too.
 */
export function botOwnerUserIds(services: Services, bot: UserRecord): number[] {
  const { org } = services;
  const isPrivate = [bot.defaultSendingChannel, bot.defaultEventsRegisterChannel].some((id) => id != null && org.channels.get(id)?.inviteOnly === true);
  const ids = new Set<number>();
  if (!isPrivate) for (const user of org.users.all()) if (user.isActive && !user.isBot && isAdmin(user.role)) ids.add(user.id);
  if (bot.botOwnerId !== null) ids.add(bot.botOwnerId);
  return [...ids];
}

// By user directory (one per organization): its bots, at a version of the directory.
const botLists = new WeakMap<object, { version: number; bots: readonly UserRecord[] }>();

/**
 * Bots of this organization (not the system's own), in the order they were made: found once per
 * change of any user, not by walking every user on each POST /register.
 */
export function realmBots(services: Services): readonly UserRecord[] {
  const users = services.org.users;
  const kept = botLists.get(users);
  if (kept !== undefined && kept.version === users.version) return kept.bots;
  const bots = [...users.all()].filter((u) => u.isBot && !u.isSystemBot).sort((a, b) => a.id - b.id);
  botLists.set(users, { version: users.version, bots });
  return bots;
}

/** `realm_bots` of `POST /register`: every bot for an administrator, else the user's own (active or not). */
export function realmBotsState(services: Services, user: UserRecord): Record<string, unknown>[] {
  const view = botView(services);
  return realmBots(services)
    .filter((bot) => isAdmin(user.role) || bot.botOwnerId === user.id)
    .map((bot) => botObject(bot, view));
}

/** Zulip's `access_bot_by_id`: a bot of the organization that `actor` may administer. */
export function accessBotById(services: Services, actor: UserRecord, botId: number): UserRecord {
  const bot = services.org.users.get(botId);
  if (!bot || !bot.isBot || bot.isSystemBot) throw badRequest('No such bot');
  if (!mayAdministerBot(actor, bot)) throw badRequest('Insufficient permission');
  return bot;
}

/** Zulip's `access_stream_by_name` for a bot's default channel. */
export function channelForBot(services: Services, actor: UserRecord, name: string): ChannelRecord {
  const channel = services.org.channels.byName(name);
  if (!channel || channel.isArchived || !channelReadable(services, actor, channel)) throw badRequest(`Invalid channel name '${name}'`);
  return channel;
}
