/**
 * `PATCH /realm` (Zulip's update_realm): every organization setting an administrator may change,
 * checked first as a whole (a refused part changes nothing), then saved in one write with the
 * `realm` `update` or `update_dict` event each sends to everyone; the answer lists what changed.
 */
import { parseRetentionDays, REALM_RETENTION_SPECIALS, requireAdministrator, requireOwner } from '../domain/channel-admin.js';
import { badRequest } from '../domain/errors.js';
import { checkGroupSettingValue, plannedSettingChange, settingValueForApi, type GroupSettingUpdate } from '../domain/group-settings.js';
import { editHistoryPolicy, realmGroupSetting, realmSetting, realmTopicsPolicy, REALM_GROUP_SETTING_DEFAULTS, type RealmRecord } from '../domain/realm.js';
import {
  CHANNEL_VALUED_SETTINGS, checkAuthenticationMethods, checkRealmValue, forbiddenRealmGroups, OWNER_ONLY_SETTINGS,
  parseJitsiUrl, parseTimeLimit, REALM_PROPERTIES, SYSTEM_GROUP_ONLY_SETTINGS,
} from '../domain/realm-settings.js';
import type { UserRecord } from '../domain/users.js';
import { seeChannelById } from '../queries/channel-access.js';
import { everyone } from '../queries/people.js';
import type { Services } from '../services.js';
import type { Transaction } from '../store/transaction.js';
import { welcomeBot } from './join.js';
import { notifyDirect } from './notifications.js';
import { settingFacts } from './user-groups.js';

const TIME_LIMITS = new Set([
  'message_content_edit_limit_seconds', 'message_content_delete_limit_seconds',
  'move_messages_within_stream_limit_seconds', 'move_messages_between_streams_limit_seconds',
]);

/** The current value of a plain property, as the API shows it. */
function currentValue(realm: RealmRecord, name: string): unknown {
  if (name === 'name') return realm.name;
  if (name === 'description') return realm.description;
  if (name === 'topics_policy') return realmTopicsPolicy(realm);
  if (name === 'message_edit_history_visibility_policy') return editHistoryPolicy(realm);
  return realmSetting(realm, name);
}

/** The realm with one plain property set (and the older setting kept in step with the one that replaced it). */
function withProperty(realm: RealmRecord, name: string, value: unknown): RealmRecord {
  if (name === 'name') return { ...realm, name: value as string };
  if (name === 'description') return { ...realm, description: value as string };
  const extra: Record<string, unknown> = {};
  if (name === 'topics_policy') extra.mandatory_topics = value === 'disable_empty_topic';
  if (name === 'mandatory_topics') extra.topics_policy = value ? 'disable_empty_topic' : 'allow_empty_topic';
  if (name === 'message_edit_history_visibility_policy') extra.allow_edit_history = value !== 'none';
  return { ...realm, settings: { ...realm.settings, [name]: value, ...extra } };
}

/** A property's value after Zulip's parsing (limits, retention, Jitsi URL) and checks. */
function parsedProperty(name: string, raw: unknown): unknown {
  if (TIME_LIMITS.has(name)) return parseTimeLimit(name, raw as number | string);
  if (name === 'message_retention_days') return parseRetentionDays(raw as number | string, REALM_RETENTION_SPECIALS);
  if (name === 'jitsi_server_url') return parseJitsiUrl(String(raw));
  checkRealmValue(name, raw);
  return raw;
}

function saveProperty(services: Services, tx: Transaction, name: string, value: unknown, data: Record<string, unknown>): void {
  const { org } = services;
  if (currentValue(org.realm, name) === value) return;
  org.saveRealm(withProperty(org.realm, name, value), tx);
  const event = REALM_PROPERTIES[name]!.updateDict
    ? { type: 'realm', op: 'update_dict', property: 'default', data: { [name]: value } }
    : { type: 'realm', op: 'update', property: name, value };
  tx.emit(event, everyone(services));
  data[name] = typeof value === 'string' ? 'updated' : value;
}

function saveGroupSetting(services: Services, tx: Transaction, name: string, update: GroupSettingUpdate, data: Record<string, unknown>): void {
  const { org } = services;
  const facts = settingFacts(services);
  const current = settingValueForApi(realmGroupSetting(org.realm, name), facts.isActiveUser);
  const planned = plannedSettingChange(update, current, facts.nobodyGroupId);
  if (planned === undefined) return;
  const value = checkGroupSettingValue(name, forbiddenRealmGroups(name), planned, facts);
  if (SYSTEM_GROUP_ONLY_SETTINGS.has(name) && (typeof value !== 'number' || !org.groups.get(value)?.isSystemGroup)) throw badRequest(`'${name}' must be a system user group.`);
  org.saveRealm({ ...org.realm, settings: { ...org.realm.settings, [name]: value } }, tx);
  const shown = settingValueForApi(value, facts.isActiveUser);
  tx.emit({ type: 'realm', op: 'update_dict', property: 'default', data: { [name]: shown } }, everyone(services));
  data[name] = shown;
}

/** A channel-valued setting: -1 (or below) for none, else a channel the administrator knows of. */
function saveChannelSetting(services: Services, tx: Transaction, actor: UserRecord, name: string, channelId: number, data: Record<string, unknown>): void {
  const { org } = services;
  if (realmSetting(org.realm, name) === channelId) return;
  if (channelId >= 0) {
    const channel = seeChannelById(services, actor, channelId);
    if (channel.isArchived) throw badRequest('Invalid channel ID');
    if (name === 'moderation_request_channel_id' && !channel.inviteOnly) throw badRequest('Moderation request channel must be private.');
  }
  const value = channelId >= 0 ? channelId : -1;
  org.saveRealm({ ...org.realm, settings: { ...org.realm.settings, [name]: value } }, tx);
  tx.emit({ type: 'realm', op: 'update_dict', property: 'default', data: { [name]: value } }, everyone(services));
  data[name] = channelId;
}

/** `PATCH /realm`: returns what changed, as Zulip's answer lists it. */
export function updateRealm(services: Services, actor: UserRecord, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  requireAdministrator(actor.role);
  for (const name of Object.keys(params)) if (params[name] !== undefined && OWNER_ONLY_SETTINGS.has(name)) requireOwner(actor.role);
  if (params.string_id !== undefined) throw badRequest('Must be a demo organization.');
  if (params.authentication_methods !== undefined) checkAuthenticationMethods(params.authentication_methods as Record<string, unknown>);
  // Parsed before anything is written, so that a bad value refuses the whole request.
  const properties = Object.keys(REALM_PROPERTIES).filter((name) => params[name] !== undefined).map((name) => [name, parsedProperty(name, params[name])] as const);
  return services.write((tx) => {
    const data: Record<string, unknown> = {};
    for (const [name, value] of properties) saveProperty(services, tx, name, value, data);
    for (const name of Object.keys(REALM_GROUP_SETTING_DEFAULTS)) {
      const update = params[name] as GroupSettingUpdate | undefined;
      if (update !== undefined) saveGroupSetting(services, tx, name, update, data);
    }
    for (const name of CHANNEL_VALUED_SETTINGS) {
      const channelId = params[name] as number | undefined;
      if (channelId !== undefined) saveChannelSetting(services, tx, actor, name, channelId, data);
    }
    return data;
  });
}

/** `POST /realm/test_welcome_bot_custom_message`: the Welcome Bot sends the text to the administrator; returns the message's id. */
export function testWelcomeBotCustomMessage(services: Services, actor: UserRecord, text: string): Promise<number> {
  requireAdministrator(actor.role);
  if (text.trim() === '') throw badRequest('Message must not be empty');
  return services.write((tx) => notifyDirect(services, tx, actor, text, welcomeBot(services, tx)).record.id);
}
