/** The initial state `POST /register` returns, per fetched event type. */
import { realmEmojiState } from './realm-emoji.js';
import { realmBotsState } from './bots.js';
import { INCOMING_WEBHOOK_INTEGRATIONS } from '../domain/webhooks/integrations.js';
import { linkifierState } from './linkifiers.js';
import { newestMessageId } from './message-state.js';
import { inRealmGroupSetting, maySubscribeOthers } from '../domain/permissions.js';
import { VisibilityPolicy } from '../domain/topic-visibility.js';
import { avatarUrlFor } from '../domain/avatar.js';
import { FIELD_TYPE_NAMES, fieldObject, inOrder } from '../domain/profile-fields.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../domain/realm.js';
import { isAdmin, isGuest, isModerator, isOwner } from '../domain/roles.js';
import {
  AVAILABLE_NOTIFICATION_SOUNDS,
  EMOJISET_CHOICES,
  LEGACY_DISPLAY_SETTINGS,
  LEGACY_NOTIFICATION_SETTINGS,
  realmUserSettingsDefaults,
  userSettings,
} from '../domain/user-settings.js';
import { apiEmail, type UserRecord } from '../domain/users.js';
import { registerUsersJson } from './user-list-json.js';
import type { QueueCapabilities } from '../events/event-queue.js';
import { recentPrivateConversations } from './recent-conversations.js';
import type { Services } from '../services.js';
import { channelVisible } from './channel-access.js';
import { presences } from './presence.js';
import { remindersOf, scheduledMessagesOf } from './scheduled-messages.js';
import { realmPart } from './register-realm.js';
import { draftsSynchronized } from '../domain/drafts.js';
import { registerDrafts } from './drafts.js';
import { navigationViewsOf } from './navigation-views.js';
import { savedSnippetsOf } from './saved-snippets.js';
import { pushDevicesState } from './push-devices.js';
import { subscriptionObject } from './subscription-format.js';
import { unreadMessages } from './unread.js';
import { groupListJson } from './group-list-json.js';
import { mutedUsersObject } from '../domain/muted-users.js';
import { visibleSubscribers } from './subscription-format.js';
import { allSubscribersField, subscriberField, type SubscriberMode } from './channel-json.js';
import { channelsInNameOrder, neverSubscribedPart, streamsPart, userStatusPart } from './register-channel-parts.js';
import type { ChannelRecord } from '../domain/channel-record.js';
import { folderObject, foldersInOrder } from '../domain/channel-folders.js';
import { defaultChannelIds } from './channel-members.js';

export interface StateRequest {
  user: UserRecord;
  /** null: every type. */
  fetchTypes: readonly string[] | null;
  eventTypes: readonly string[] | null;
  clientGravatar: boolean;
  includeSubscribers: SubscriberMode;
  slimPresence: boolean;
  capabilities: QueueCapabilities;
}


/**
 * `subscriptions` (the user's own, as text: each object serialised with its channel's subscriber
 * list spliced in from the text kept per channel), `unsubscribed` (objects) and `never_subscribed`
 * (the public channels everyone sees alike, joined from texts kept per channel).
 */
function subscriptionState(services: Services, request: StateRequest): { fields: Record<string, unknown>; subscriptions: Buffer; neverSubscribed: Buffer } {
  const { user } = request;
  const mode = request.includeSubscribers;
  const format = { includeSubscribers: false, notificationSettingsNull: request.capabilities.notificationSettingsNull };
  const withSubscribers = (object: Record<string, unknown>, ids: () => number[]) => {
    if (mode === false) return object;
    const [key, list] = subscriberField(services, ids(), mode);
    object[key] = list;
    return object;
  };
  const subscriptions: string[] = [];
  const unsubscribed: Record<string, unknown>[] = [];
  const neverSubscribed: ChannelRecord[] = [];
  const states = services.subscriptions.channelsOf(user.id);
  for (const channel of channelsInNameOrder(services)) {
    if (channel.isArchived && !request.capabilities.archivedChannels) continue;
    const state = states[channel.id];
    if (state?.active) {
      const text = JSON.stringify(subscriptionObject(services, user, channel, state, format));
      // A subscriber sees every subscriber: the list kept per channel (and its text) serves them all.
      subscriptions.push(mode === false ? text : `${text.slice(0, -1)},${allSubscribersField(services, channel, mode).json}}`);
    }
    else if (!channelVisible(services, user, channel)) continue;
    else if (state) unsubscribed.push(withSubscribers(subscriptionObject(services, user, channel, state, format), () => visibleSubscribers(services, user, channel)));
    else neverSubscribed.push(channel);
  }
  return {
    fields: { unsubscribed },
    subscriptions: Buffer.from(`"subscriptions":[${subscriptions.join(',')}]`),
    neverSubscribed: neverSubscribedPart(services, neverSubscribed, mode),
  };
}

function realmUserState(services: Services, request: StateRequest): Record<string, unknown> {
  const { org } = services;
  const { user } = request;
  const ownAvatar = avatarUrlFor(user, { clientGravatar: false, emailIsPublic: true, realmUrl: org.url })!;
  const may = (setting: string) => inRealmGroupSetting(user, org.realm, setting, org.groups);
  const canCreatePublic = may('can_create_public_channel_group');
  const canCreatePrivate = may('can_create_private_channel_group');
  const canCreateWebPublic = may('can_create_web_public_channel_group');
  return {
    avatar_source: user.avatarSource,
    avatar_url: ownAvatar,
    avatar_url_medium: ownAvatar.replace('&version=', '&s=500&version='),
    can_create_private_streams: canCreatePrivate,
    can_create_public_streams: canCreatePublic,
    can_create_web_public_streams: canCreateWebPublic,
    can_create_streams: canCreatePrivate || canCreatePublic || canCreateWebPublic,
    can_subscribe_other_users: maySubscribeOthers(user, org.realm, org.groups),
    can_invite_others_to_realm: may('can_invite_users_group'),
    is_admin: isAdmin(user.role),
    is_owner: isOwner(user.role),
    is_moderator: isModerator(user.role),
    is_guest: isGuest(user.role),
    user_id: user.id,
    email: apiEmail(user, org.host),
    delivery_email: user.deliveryEmail,
    full_name: user.fullName,
  };
}

/** The user's settings: the `user_settings` object, or at the top level for clients without it. */
function settingsState(request: StateRequest, want: (type: string) => boolean): Record<string, unknown> {
  const state: Record<string, unknown> = {};
  const settings = userSettings(request.user);
  if (want('user_settings')) state.user_settings = { ...settings, emojiset_choices: EMOJISET_CHOICES, available_notification_sounds: AVAILABLE_NOTIFICATION_SOUNDS };
  if (request.capabilities.userSettingsObject) return state;
  if (want('update_display_settings')) {
    for (const key of LEGACY_DISPLAY_SETTINGS) state[key] = settings[key];
    state.emojiset_choices = EMOJISET_CHOICES;
  }
  if (want('update_global_notifications')) {
    for (const key of LEGACY_NOTIFICATION_SETTINGS) state[key] = settings[key];
    state.available_notification_sounds = AVAILABLE_NOTIFICATION_SOUNDS;
  }
  return state;
}

export interface InitialState {
  fields: Record<string, unknown>;
  /** Fields already serialised and encoded (the realm block and the user lists, kept; own subscriptions): runs of fields without braces. */
  json: Buffer[];
}

/** Features not built yet report their empty state, so clients start cleanly. */
const EMPTY_STATES: Record<string, [string, unknown][]> = {
  realm_domains: [['realm_domains', []]],
  onboarding_steps: [['onboarding_steps', []]],
  default_stream_groups: [['realm_default_stream_groups', []]],
  realm_embedded_bots: [['realm_embedded_bots', []]],
  video_calls: [['has_zoom_token', false]],
  giphy: [['giphy_api_key', '']],
  stop_words: [['stop_words', []]],
};

/** Builds the state; reads that need the store are awaited, the rest comes from memory. */
export async function initialState(services: Services, request: StateRequest): Promise<InitialState> {
  const { user, fetchTypes, eventTypes } = request;
  const want = (type: string) => fetchTypes === null || fetchTypes.includes(type);
  const state: Record<string, unknown> = {};
  const now = services.clock.now();
  const json: Buffer[] = [];
  if (want('realm')) json.push(realmPart(services, services.startedAt));
  if (want('realm_user')) {
    Object.assign(state, realmUserState(services, request));
    json.push(...registerUsersJson(services, user, { clientGravatar: request.clientGravatar, avatarOptional: request.capabilities.userAvatarUrlFieldOptional }));
  }
  if (want('subscription')) {
    const { fields, subscriptions, neverSubscribed } = subscriptionState(services, request);
    Object.assign(state, fields);
    json.push(subscriptions, neverSubscribed);
  }
  if (want('message')) state.max_message_id = await newestMessageId(services, user.id);
  if (want('message') && want('update_message_flags')) state.unread_msgs = await unreadMessages(services, user.id, request.capabilities.emptyTopicName);
  if (want('starred_messages')) {
    const starred: number[] = [];
    for await (const id of services.messages.ids({ of: 'starred', userId: user.id }, { reverse: false })) starred.push(id);
    state.starred_messages = starred;
  }
  const topics = services.subscriptions.topicsOf(user.id);
  const topicName = (topic: string) => (topic === '' && !request.capabilities.emptyTopicName ? EMPTY_TOPIC_DISPLAY_NAME : topic);
  if (want('muted_topics') && (eventTypes === null || !eventTypes.includes('user_topic'))) {
    state.muted_topics = topics
      .filter((t) => t.policy === VisibilityPolicy.MUTED)
      .map((t) => [services.org.channels.get(t.channelId)?.name ?? '', topicName(t.topic), t.lastUpdated]);
  }
  if (want('user_topic')) {
    state.user_topics = topics.map((t) => ({ stream_id: t.channelId, topic_name: topicName(t.topic), last_updated: t.lastUpdated, visibility_policy: t.policy }));
  }
  if (want('realm_user_groups')) json.push(groupListJson(services, request.capabilities.includeDeactivatedGroups === true));
  if (want('custom_profile_fields')) {
    state.custom_profile_fields = inOrder(services.org.realm.profileFields ?? []).map(fieldObject);
    state.custom_profile_field_types = FIELD_TYPE_NAMES;
  }
  if (want('presence')) {
    state.presences = presences(services, request.slimPresence, Math.floor(now / 1000));
    state.presence_last_update_id = services.presence.newestUpdateId;
    state.server_timestamp = now / 1000;
  }
  Object.assign(state, settingsState(request, want));
  if (want('stream')) {
    const visible = channelsInNameOrder(services).filter((c) => channelVisible(services, user, c) && (!c.isArchived || request.capabilities.archivedChannels));
    json.push(streamsPart(services, visible));
  }
  if (want('default_streams')) state.realm_default_streams = isGuest(user.role) ? [] : defaultChannelIds(services);
  if (want('realm_user_settings_defaults')) {
    state.realm_user_settings_defaults = { ...realmUserSettingsDefaults(services.org.realm.userSettingsDefaults), emojiset_choices: EMOJISET_CHOICES, available_notification_sounds: AVAILABLE_NOTIFICATION_SOUNDS };
  }
  if (want('channel_folders')) state.channel_folders = foldersInOrder(services.org.realm.channelFolders ?? [], true).map(folderObject);
  if (want('scheduled_messages')) state.scheduled_messages = scheduledMessagesOf(services, user);
  if (want('reminders')) state.reminders = remindersOf(services, user);
  if (want('recent_private_conversations')) state.recent_private_conversations = await recentPrivateConversations(services, user.id);
  // As Zulip: with synchronization off the server keeps no drafts, and says so.
  if (want('drafts')) state.drafts = draftsSynchronized(user) ? registerDrafts(services, user.id) : [];
  if (want('navigation_views')) state.navigation_views = navigationViewsOf(services, user.id);
  if (want('saved_snippets')) state.saved_snippets = savedSnippetsOf(services, user.id);
  if (want('push_device')) state.push_devices = pushDevicesState(services, user.id);
  if (want('user_status')) json.push(userStatusPart(services));
  if (want('alert_words')) state.alert_words = [...(user.alertWords ?? [])];
  if (want('muted_users')) state.muted_users = mutedUsersObject(user.mutedUsers);
  if (want('realm_emoji')) state.realm_emoji = realmEmojiState(services);
  if (want('realm_bot')) state.realm_bots = realmBotsState(services, user);
  if (want('realm_incoming_webhook_bots')) state.realm_incoming_webhook_bots = INCOMING_WEBHOOK_INTEGRATIONS;
  Object.assign(state, linkifierState(services, want, request.capabilities));
  for (const [type, entries] of Object.entries(EMPTY_STATES)) if (want(type)) for (const [key, value] of entries) state[key] = value;
  return { fields: state, json };
}
