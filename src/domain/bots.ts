/**
 * Bots as Zulip's `/bots` endpoints know them: their kinds, who may create and administer
 * them, how their address is formed, and the objects the API shows of them.
 */
import { avatarUrlFor } from './avatar.js';
import { badRequest } from './errors.js';
import type { GroupLookup } from './groups.js';
import { holdsRealmSetting, type PermissionHolder } from './group-permissions.js';
import type { RealmRecord } from './realm.js';
import type { Refusal } from './refusal.js';
import { isAdmin } from './roles.js';
import { BotType, type UserRecord } from './users.js';

export { BotType };

/** Zulip's `Service` interfaces: its own outgoing webhook payload, and Slack's. */
export const BotInterface = { GENERIC: 1, SLACK: 2 } as const;
const INTERFACES: readonly number[] = Object.values(BotInterface);

const INSUFFICIENT: Refusal = { code: 'BAD_REQUEST', msg: 'Insufficient permission' };

/** Zulip's `can_create_all_bots`: in `can_create_bots_group` (administrators always are). */
export function mayCreateAllBots(user: PermissionHolder, realm: RealmRecord, groups: GroupLookup): boolean {
  return isAdmin(user.role) || holdsRealmSetting(user, realm, 'can_create_bots_group', groups);
}

/** Zulip's `can_create_write_only_bots`: incoming webhook bots only. */
function mayCreateWriteOnlyBots(user: PermissionHolder, realm: RealmRecord, groups: GroupLookup): boolean {
  return mayCreateAllBots(user, realm, groups) || holdsRealmSetting(user, realm, 'can_create_write_only_bots_group', groups);
}

/** Zulip's `check_bot_creation_policy`: may `user` create (or reactivate) a bot of `botType`? */
export function botCreationRefusal(user: PermissionHolder, realm: RealmRecord, groups: GroupLookup, botType: number): Refusal | null {
  if (mayCreateAllBots(user, realm, groups)) return null;
  if (botType === BotType.INCOMING_WEBHOOK && mayCreateWriteOnlyBots(user, realm, groups)) return null;
  return INSUFFICIENT;
}

/** Zulip's `allowed_bot_types`; embedded bots are not enabled on this server (Zulip's default). */
export function allowedBotTypes(user: PermissionHolder, realm: RealmRecord, groups: GroupLookup): number[] {
  if (mayCreateAllBots(user, realm, groups)) return [BotType.GENERIC, BotType.INCOMING_WEBHOOK, BotType.OUTGOING_WEBHOOK];
  return mayCreateWriteOnlyBots(user, realm, groups) ? [BotType.INCOMING_WEBHOOK] : [];
}

export function checkBotType(user: PermissionHolder, realm: RealmRecord, groups: GroupLookup, botType: number): void {
  if (!allowedBotTypes(user, realm, groups).includes(botType)) throw badRequest('Invalid bot type');
}

export function checkInterfaceType(value: number): void {
  if (!INTERFACES.includes(value)) throw badRequest('Invalid interface type');
}

/** Zulip's `check_short_name`: stripped, not empty. */
export function checkShortName(raw: string): string {
  const short = raw.trim();
  if (short === '') throw badRequest('Bad name or username');
  return short;
}

/** The local part of an address as Django's validator takes it unquoted (dot-atoms). */
const DOT_ATOM = /^[-!#$%&'*+/=?^_`{}|~0-9A-Za-z]+(\.[-!#$%&'*+/=?^_`{}|~0-9A-Za-z]+)*$/;

/** A bot's address, as Zulip forms it: `{short_name}-bot@{the realm's bot domain}`. */
export function botEmail(shortName: string, botDomain: string): string {
  const local = `${shortName}-bot`;
  if (!DOT_ATOM.test(local) || local.length > 64) throw badRequest('Bad name or username');
  return `${local}@${botDomain}`;
}

/** Zulip's `can_admin_user` for bots: the owner, or an administrator. */
export function mayAdministerBot(actor: Pick<UserRecord, 'id' | 'role'>, bot: Pick<UserRecord, 'botOwnerId'>): boolean {
  return bot.botOwnerId === actor.id || isAdmin(actor.role);
}

/** Zulip's `check_url` as its validators apply it to `payload_url`. */
export function checkPayloadUrl(value: string, name = 'payload_url'): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badRequest(`${name} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest(`${name} is not a URL`);
  return value;
}

/** A service's entry in the bot object (`services`): outgoing webhooks only here. */
export function serviceObjects(bot: UserRecord): Record<string, unknown>[] {
  if (bot.botType !== BotType.OUTGOING_WEBHOOK || !bot.botService) return [];
  return [{ base_url: bot.botService.baseUrl, interface: bot.botService.interface, token: bot.botService.token }];
}

export interface BotView {
  host: string;
  realmUrl: string;
  channelName: (id: number | null | undefined) => string | null;
}

/** The bot object of `realm_bots` and of `realm_bot` `add` events (Zulip's `created_bot_event`). */
export function botObject(bot: UserRecord, view: BotView): Record<string, unknown> {
  return {
    email: bot.deliveryEmail,
    user_id: bot.id,
    full_name: bot.fullName,
    bot_type: bot.botType,
    is_active: bot.isActive,
    api_key: bot.apiKey,
    default_sending_stream: view.channelName(bot.defaultSendingChannel),
    default_events_register_stream: view.channelName(bot.defaultEventsRegisterChannel),
    default_all_public_streams: bot.defaultAllPublicStreams ?? false,
    avatar_url: botAvatarUrl(bot, view.realmUrl),
    services: serviceObjects(bot),
    owner_id: bot.botOwnerId,
  };
}

export function botAvatarUrl(bot: UserRecord, realmUrl: string): string | null {
  return avatarUrlFor(bot, { clientGravatar: false, emailIsPublic: true, realmUrl });
}
