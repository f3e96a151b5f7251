/**
 * `PATCH /bots/{bot_id}` (Zulip's `patch_bot_backend`): name, role, owner, default channels,
 * the outgoing webhook's URL and interface, an incoming webhook's configuration. One write:
 * a refused part changes nothing. Each change tells `realm_bot` (and `realm_user` where
 * public data changes) as Zulip's `do_change_*` functions do.
 */
import { botObject, BotType, checkInterfaceType, checkPayloadUrl, serviceObjects } from '../domain/bots.js';
import { badRequest } from '../domain/errors.js';
import { isAdmin, isRole, Role } from '../domain/roles.js';
import { apiEmail, checkFullName, type UserRecord } from '../domain/users.js';
import { LIMITS } from '../domain/versions.js';
import type { Services } from '../services.js';
import type { Transaction } from '../store/transaction.js';
import { accessBotById, botOwnerUserIds, botView, channelForBot } from '../queries/bots.js';
import { everyone } from '../queries/people.js';
import { changeRole } from './accounts.js';
import { botUpdate, checkBotNameAvailable } from './bot-events.js';

export interface BotChanges {
  full_name?: string;
  role?: number;
  bot_owner_id?: number;
  config_data?: Record<string, string>;
  service_payload_url?: string;
  service_interface: number;
  default_sending_stream?: string;
  default_events_register_stream?: string;
  default_all_public_streams?: boolean;
}

function save(services: Services, tx: Transaction, bot: UserRecord, changes: Partial<UserRecord>): UserRecord {
  const updated = { ...bot, ...changes };
  services.org.users.save(updated, tx);
  return updated;
}

/** Zulip's `check_change_bot_full_name`: an unchanged name is silently ignored. */
function changeName(services: Services, tx: Transaction, bot: UserRecord, raw: string): UserRecord {
  const fullName = checkFullName(raw, LIMITS.maxFullNameLength);
  if (fullName === bot.fullName) return bot;
  checkBotNameAvailable(services, fullName, bot.id);
  const updated = save(services, tx, bot, { fullName });
  tx.emit({ type: 'realm_user', op: 'update', person: { user_id: bot.id, full_name: fullName } }, everyone(services));
  botUpdate(services, tx, updated, { full_name: fullName });
  return updated;
}

function changeBotRole(services: Services, tx: Transaction, actor: UserRecord, bot: UserRecord, role: number): UserRecord {
  if (bot.role === role || !isRole(role)) return bot;
  if ((role === Role.OWNER || bot.role === Role.OWNER) && actor.role !== Role.OWNER) throw badRequest('Must be an organization owner');
  if (!isAdmin(actor.role)) throw badRequest('Must be an organization administrator');
  const updated = changeRole(services.org, tx, bot, role);
  tx.emit({ type: 'realm_user', op: 'update', person: { user_id: bot.id, role } }, everyone(services));
  return updated;
}

/** Zulip's `do_change_bot_owner`: the old owner loses the bot, the new one gains it, the rest hear an update. */
function changeOwner(services: Services, tx: Transaction, bot: UserRecord, ownerId: number): UserRecord {
  const owner = services.org.users.get(ownerId);
  if (!owner || owner.isSystemBot) throw badRequest('Failed to change owner, no such user');
  if (!owner.isActive) throw badRequest('Failed to change owner, user is deactivated');
  if (owner.isBot) throw badRequest("Failed to change owner, bots can't own other bots");
  if (bot.botOwnerId === owner.id) return bot;
  const previous = bot.botOwnerId === null ? undefined : services.org.users.get(bot.botOwnerId);
  const updated = save(services, tx, bot, { botOwnerId: owner.id });
  let updateUsers = botOwnerUserIds(services, updated);
  if (previous && !isAdmin(previous.role)) {
    tx.emit({ type: 'realm_bot', op: 'delete', bot: { user_id: bot.id } }, [previous.id]);
    updateUsers = updateUsers.filter((id) => id !== previous.id);
  }
  if (!isAdmin(owner.role)) {
    tx.emit({ type: 'realm_bot', op: 'add', bot: botObject(updated, botView(services)) }, [owner.id]);
    updateUsers = updateUsers.filter((id) => id !== owner.id);
  }
  tx.emit({ type: 'realm_bot', op: 'update', bot: { user_id: bot.id, owner_id: owner.id } }, updateUsers);
  tx.emit({ type: 'realm_user', op: 'update', person: { user_id: bot.id, bot_owner_id: owner.id } }, everyone(services));
  return updated;
}

type ChannelField = 'defaultSendingChannel' | 'defaultEventsRegisterChannel';

function changeDefaultChannel(services: Services, tx: Transaction, actor: UserRecord, bot: UserRecord, field: ChannelField, name: string): UserRecord {
  const channel = name === '' ? undefined : channelForBot(services, actor, name);
  const updated = save(services, tx, bot, { [field]: channel?.id ?? null });
  const key = field === 'defaultSendingChannel' ? 'default_sending_stream' : 'default_events_register_stream';
  botUpdate(services, tx, updated, { [key]: channel?.name ?? null });
  return updated;
}

/** Zulip's `do_update_outgoing_webhook_service`. */
function changeService(services: Services, tx: Transaction, bot: UserRecord, url: string, interfaceType: number): UserRecord {
  checkInterfaceType(interfaceType);
  checkPayloadUrl(url, 'service_payload_url');
  if (!bot.botService) return bot;
  const updated = save(services, tx, bot, { botService: { ...bot.botService, baseUrl: url, interface: interfaceType } });
  botUpdate(services, tx, updated, { services: serviceObjects(updated) });
  return updated;
}

/** Zulip's `do_update_bot_config_data`: keys are set one by one, the whole configuration is told. */
function changeConfig(services: Services, tx: Transaction, bot: UserRecord, config: Record<string, string>): UserRecord {
  const botConfig = { ...(bot.botConfig ?? {}), ...config };
  const updated = save(services, tx, bot, { botConfig });
  botUpdate(services, tx, updated, { services: [{ config_data: botConfig }] });
  return updated;
}

export async function changeBot(services: Services, actor: UserRecord, botId: number, p: BotChanges) {
  if (p.role !== undefined && !isRole(p.role)) throw badRequest('Invalid role');
  accessBotById(services, actor, botId);
  const bot = await services.write((tx) => {
    let bot = services.org.users.get(botId)!;
    if (p.full_name !== undefined) bot = changeName(services, tx, bot, p.full_name);
    if (p.role !== undefined) bot = changeBotRole(services, tx, actor, bot, p.role);
    if (p.bot_owner_id !== undefined) bot = changeOwner(services, tx, bot, p.bot_owner_id);
    if (p.default_sending_stream !== undefined) bot = changeDefaultChannel(services, tx, actor, bot, 'defaultSendingChannel', p.default_sending_stream);
    if (p.default_events_register_stream !== undefined) bot = changeDefaultChannel(services, tx, actor, bot, 'defaultEventsRegisterChannel', p.default_events_register_stream);
    if (p.default_all_public_streams !== undefined) {
      bot = save(services, tx, bot, { defaultAllPublicStreams: p.default_all_public_streams });
      botUpdate(services, tx, bot, { default_all_public_streams: p.default_all_public_streams });
    }
    if (p.service_payload_url !== undefined) bot = changeService(services, tx, bot, p.service_payload_url, p.service_interface);
    if (p.config_data !== undefined && bot.botType === BotType.INCOMING_WEBHOOK) bot = changeConfig(services, tx, bot, p.config_data);
    return bot;
  });
  const view = botView(services);
  const object = botObject(bot, view);
  const answer: Record<string, unknown> = {
    full_name: bot.fullName,
    avatar_url: object.avatar_url,
    service_interface: p.service_interface,
    service_payload_url: p.service_payload_url ?? null,
    config_data: p.config_data ?? null,
    default_sending_stream: object.default_sending_stream,
    default_events_register_stream: object.default_events_register_stream,
    default_all_public_streams: object.default_all_public_streams,
  };
  const owner = bot.botOwnerId === null ? undefined : services.org.users.get(bot.botOwnerId);
  // Zulip's `bot_owner.email`: the address the API shows for the owner.
  if (owner) answer.bot_owner = apiEmail(owner, services.org.host);
  return answer;
}
