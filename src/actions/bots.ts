/**
 * Creating and configuring bots (Zulip's `add_bot_backend`, `patch_bot_backend`,
 * `regenerate_bot_api_key`, `deactivate_bot_backend`), with their `realm_user` and `realm_bot`
 * events. Deactivation and reactivation themselves are `actions/deactivation.ts`.
 */
import {
  botCreationRefusal,
  botEmail,
  BotType,
  botObject,
  checkBotType,
  checkInterfaceType,
  checkPayloadUrl,
  checkShortName,
} from '../domain/bots.js';
import { generateApiKey } from '../domain/credentials.js';
import { badRequest } from '../domain/errors.js';
import { refusalError } from '../domain/permissions.js';
import { Role } from '../domain/roles.js';
import { checkFullName, type UserRecord } from '../domain/users.js';
import { LIMITS } from '../domain/versions.js';
import type { Services } from '../services.js';
import type { Transaction } from '../store/transaction.js';
import { accessBotById, botOwnerUserIds, botView, channelForBot } from '../queries/bots.js';
import { createAccount, regenerateApiKey } from './accounts.js';
import { announceNewUser } from './users.js';
import { deactivateAccount } from './deactivation.js';
import { botUpdate, checkBotNameAvailable } from './bot-events.js';

export interface NewBot {
  full_name: string;
  short_name: string;
  bot_type: number;
  payload_url: string;
  service_name?: string;
  config_data?: Record<string, string>;
  interface_type: number;
  default_sending_stream?: string;
  default_events_register_stream?: string;
  default_all_public_streams?: boolean;
}

/** `POST /bots`, its checks in Zulip's order. */
export async function createBot(services: Services, actor: UserRecord, p: NewBot) {
  const { org } = services;
  const shortName = checkShortName(p.short_name);
  const serviceName = p.bot_type !== BotType.INCOMING_WEBHOOK ? (p.service_name ?? shortName) : p.service_name;
  const fullName = checkFullName(p.full_name, LIMITS.maxFullNameLength);
  const email = botEmail(shortName, org.host);
  if (org.users.byEmail(email)) throw badRequest('Username already in use');
  checkBotNameAvailable(services, fullName);
  const refusal = botCreationRefusal(actor, org.realm, org.groups, p.bot_type);
  if (refusal) throw refusalError(refusal);
  checkBotType(actor, org.realm, org.groups, p.bot_type);
  checkInterfaceType(p.interface_type);
  const sending = p.default_sending_stream === undefined ? undefined : channelForBot(services, actor, p.default_sending_stream);
  const register = p.default_events_register_stream === undefined ? undefined : channelForBot(services, actor, p.default_events_register_stream);
  if (p.bot_type === BotType.OUTGOING_WEBHOOK) checkPayloadUrl(p.payload_url);
  const bot = await services.write((tx) => {
    const created = createAccount(org, services.counters, tx, {
      email, fullName, role: Role.MEMBER, passwordHash: null, isBot: true, botType: p.bot_type, botOwnerId: actor.id, nowMs: services.clock.now(),
    });
    const config: Record<string, string> = {};
    if (p.bot_type === BotType.INCOMING_WEBHOOK && serviceName) config.integration_id = serviceName;
    if (p.bot_type === BotType.INCOMING_WEBHOOK) Object.assign(config, p.config_data ?? {});
    const record: UserRecord = {
      ...created,
      defaultSendingChannel: sending?.id ?? null,
      defaultEventsRegisterChannel: register?.id ?? null,
      defaultAllPublicStreams: p.default_all_public_streams ?? false,
      botService: p.bot_type === BotType.OUTGOING_WEBHOOK ? { name: serviceName ?? shortName, baseUrl: p.payload_url, interface: p.interface_type, token: generateApiKey() } : undefined,
      botConfig: Object.keys(config).length > 0 ? config : undefined,
    };
    org.users.save(record, tx);
    announceNewUser(services, tx, record);
    tx.emit({ type: 'realm_bot', op: 'add', bot: botObject(record, botView(services)) }, botOwnerUserIds(services, record));
    return record;
  });
  const view = botView(services);
  return {
    user_id: bot.id,
    api_key: bot.apiKey,
    avatar_url: botObject(bot, view).avatar_url,
    default_sending_stream: view.channelName(bot.defaultSendingChannel),
    default_events_register_stream: view.channelName(bot.defaultEventsRegisterChannel),
    default_all_public_streams: bot.defaultAllPublicStreams ?? false,
  };
}

/** `GET /bots`: the caller's own active bots, oldest first (Zulip's `get_bots_backend`). */
export function ownBots(services: Services, actor: UserRecord) {
  const view = botView(services);
  const bots = [...services.org.users.all()].filter((u) => u.isBot && u.isActive && u.botOwnerId === actor.id).sort((a, b) => a.dateJoined - b.dateJoined || a.id - b.id);
  return bots.map((bot) => {
    const object = botObject(bot, view);
    return {
      username: bot.deliveryEmail,
      full_name: bot.fullName,
      api_key: bot.apiKey,
      avatar_url: object.avatar_url,
      default_sending_stream: object.default_sending_stream,
      default_events_register_stream: object.default_events_register_stream,
      default_all_public_streams: object.default_all_public_streams,
    };
  });
}

/** `POST /bots/{bot_id}/api_key/regenerate`. */
export async function regenerateBotKey(services: Services, actor: UserRecord, botId: number): Promise<string> {
  accessBotById(services, actor, botId);
  return services.write((tx) => {
    const bot = regenerateApiKey(services.org, tx, services.org.users.get(botId)!);
    botUpdate(services, tx, bot, { api_key: bot.apiKey });
    return bot.apiKey;
  });
}

/** `DELETE /bots/{bot_id}`: Zulip's `_deactivate_user_profile_backend` for a bot. */
export async function deactivateBot(services: Services, actor: UserRecord, botId: number) {
  accessBotById(services, actor, botId);
  await services.write((tx) => {
    const bot = services.org.users.get(botId)!;
    if (bot.role === Role.OWNER && actor.role !== Role.OWNER) throw badRequest('Must be an organization owner');
    if (!bot.isActive) return;
    deactivateAccount(services, tx, bot);
  });
  return {};
}
