/**
 * Who may do what to channels and messages: pure rules over plain records, each returning either
 * a boolean or a refusal that carries the exact error Zulip answers with.
 */
import { canAccessContent, canAccessHistory, canSeeChannel, type ChannelRecord } from './channel-record.js';
import { ApiError, type ErrorCode } from './errors.js';
import { type GroupLookup, type GroupSettingValue } from './groups.js';
import { holdsGroupPermission, holdsRealmSetting } from './group-permissions.js';
import type { Refusal } from './refusal.js';
import { HISTORICAL_FLAGS, type MessageRecord } from './messages.js';
import { realmGroupSetting, realmSetting, type RealmRecord } from './realm.js';
import { isAdmin, isGuest, isModerator, isOwner, Role } from './roles.js';
import type { UserRecord } from './users.js';

export type { Refusal } from './refusal.js';

/** The error a refusal becomes; `badRequest(msg)` when the code is BAD_REQUEST. */
export function refusalError(refusal: Refusal): ApiError {
  return new ApiError(refusal.code, refusal.msg);
}

const refuse = (msg: string, code: ErrorCode = 'BAD_REQUEST'): Refusal => ({ code, msg });

/** The acting user, as far as the rules look at them. */
export type Actor = Pick<UserRecord, 'id' | 'role'>;
/** A sender: bots post with their owner's rights, and the system's own bots post anywhere unarchived. */
export type Sender = Pick<UserRecord, 'id' | 'role' | 'botOwnerId' | 'isSystemBot'>;
/** What the time limits and ownership rules read of a message. */
export type MessageFacts = Pick<MessageRecord, 'senderId' | 'timestamp'>;

/** Channels with more subscribers (topics with more participants) restrict wildcard mentions. */
export const WILDCARD_MENTION_THRESHOLD = 15;

/** Zulip allows edits and moves a little past their limit, for the time it takes to type them. */
export const EDIT_GRACE_SECONDS = 20;

// ---------------------------------------------------------------------------------------------
// Group settings

/** Does the organization's group setting `settingName` (e.g. `can_mention_many_users_group`) include the user? */
export function inRealmGroupSetting(user: Pick<UserRecord, 'id'> & Partial<Pick<UserRecord, 'role'>>, realm: RealmRecord, settingName: string, groups: GroupLookup): boolean {
  // The role matters only for settings guests may never hold; a caller without one is no guest.
  return holdsRealmSetting({ id: user.id, role: user.role ?? Role.MEMBER }, realm, settingName, groups);
}

/** A channel's group setting; a channel stored without the setting grants nothing. */
function inChannelGroupSetting(userId: number, value: GroupSettingValue | undefined, groups: GroupLookup): boolean {
  return holdsGroupPermission({ id: userId, role: Role.MEMBER }, value, groups);
}

// ---------------------------------------------------------------------------------------------
// Channels: knowing, reading, posting

/** Does the user know the channel exists (metadata access)? Administrators know every channel. */
export function knowsChannel(user: Actor, channel: ChannelRecord, subscribed: boolean): boolean {
  return canSeeChannel(user, channel, subscribed, isAdmin(user.role));
}

/** A channel the user may know of, else `Invalid channel ID` (a missing channel is refused alike). */
export function mayKnowChannel(user: Actor, channel: ChannelRecord | undefined, subscribed: boolean): Refusal | null {
  return channel && knowsChannel(user, channel, subscribed) ? null : refuse('Invalid channel ID');
}

/** A channel whose messages the user may read, else `Invalid channel ID` (a missing channel is refused alike). */
export function mayReadChannel(user: Actor, channel: ChannelRecord | undefined, subscribed: boolean): Refusal | null {
  return channel && canAccessContent(user, channel, subscribed) ? null : refuse('Invalid channel ID');
}

export interface PostFacts {
  /** Is the sender subscribed to the channel? */
  subscribed: boolean;
  /** Is the sender's owner (bots only) subscribed to the channel? */
  ownerSubscribed: boolean;
}

/** Zulip's access_stream_for_send_message: may `sender` post to `channel`? */
export function mayPostToChannel(sender: Sender, channel: ChannelRecord, groups: GroupLookup, facts: PostFacts): Refusal | null {
  const sendGroup = channel.settings.can_send_message_group;
  if (sendGroup !== undefined && !inChannelGroupSetting(sender.id, sendGroup, groups)) {
    const owner = sender.botOwnerId ?? undefined;
    if (owner === undefined || !inChannelGroupSetting(owner, sendGroup, groups)) return refuse('You do not have permission to post in this channel.');
  }
  const refused = refuse(`Not authorized to send to channel '${channel.name}'`);
  if (channel.isArchived) return refused;
  if (sender.isSystemBot) return null;
  if (channel.isWebPublic) return null;
  if (!channel.inviteOnly && !isGuest(sender.role)) return null;
  if (facts.subscribed) return null;
  if (sender.botOwnerId !== null && facts.ownerSubscribed) return null;
  return refused;
}

/** May the user mention everyone in a large channel or topic (`can_mention_many_users_group`)? */
export function mayMentionManyUsers(user: Pick<UserRecord, 'id'>, realm: RealmRecord, groups: GroupLookup): boolean {
  return inRealmGroupSetting(user, realm, 'can_mention_many_users_group', groups);
}

export interface WildcardMention {
  streamWildcard: boolean;
  topicWildcard: boolean;
  /** Subscribers of the channel sent to. */
  channelSubscriberCount: number;
  /** The topic's participants so far (the sender is counted whether listed or not). */
  topicParticipants: Iterable<number>;
}

/** May `sender` use the wildcard mentions of a message? Small channels and topics allow everyone. */
export function mayUseWildcardMentions(sender: Pick<UserRecord, 'id'>, realm: RealmRecord, groups: GroupLookup, mention: WildcardMention): Refusal | null {
  if (mention.streamWildcard && mention.channelSubscriberCount > WILDCARD_MENTION_THRESHOLD && !mayMentionManyUsers(sender, realm, groups)) {
    return refuse('You do not have permission to use channel wildcard mentions in this channel.', 'STREAM_WILDCARD_MENTION_NOT_ALLOWED');
  }
  if (mention.topicWildcard) {
    const participants = new Set(mention.topicParticipants);
    participants.add(sender.id);
    if (participants.size > WILDCARD_MENTION_THRESHOLD && !mayMentionManyUsers(sender, realm, groups)) {
      return refuse('You do not have permission to use topic wildcard mentions in this topic.', 'TOPIC_WILDCARD_MENTION_NOT_ALLOWED');
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Messages: reading

/**
 * Zulip's access_message: the viewer's flags for a message they may read (historical flags when
 * they hold no record of it), or undefined. `flags` is the viewer's record, `subscribed` whether
 * they are subscribed to the message's channel, `channel` that channel (undefined if missing).
 */
export function messageAccess(
  viewer: Actor,
  message: Pick<MessageRecord, 'type'>,
  channel: ChannelRecord | undefined,
  flags: number | undefined,
  subscribed: boolean,
): number | undefined {
  if (message.type === 'private') return flags;
  if (!channel) return undefined;
  if (flags !== undefined) return canAccessContent(viewer, channel, subscribed) ? flags : undefined;
  if (!channel.inviteOnly && !isGuest(viewer.role)) return HISTORICAL_FLAGS;
  return canAccessHistory(viewer, channel, subscribed) ? HISTORICAL_FLAGS : undefined;
}

// ---------------------------------------------------------------------------------------------
// Messages: editing, moving, deleting

/** Messages of archived channels are frozen: edits and deletions answer as if the message did not exist. */
export function mayAlterMessageIn(channel: ChannelRecord | undefined): Refusal | null {
  return channel?.isArchived ? refuse('Invalid message(s)') : null;
}

/** Is `now` (Unix seconds) within `limit` seconds (null: no limit) of `sentAt`, grace included? */
function withinEditLimit(sentAt: number, limit: number | null, now: number): boolean {
  return limit === null || now - sentAt <= limit + EDIT_GRACE_SECONDS;
}

/** May the user change the message's content? Only its sender, while the organization allows it and within the limit. */
export function mayEditContent(user: Actor, message: MessageFacts, realm: RealmRecord, now: number): Refusal | null {
  if (!realmSetting(realm, 'allow_message_editing')) return refuse('Your organization has turned off message editing');
  if (message.senderId !== user.id) return refuse("You don't have permission to edit this message");
  if (!withinEditLimit(message.timestamp, realmSetting(realm, 'message_content_edit_limit_seconds'), now)) {
    return refuse('The time limit for editing this message has passed');
  }
  return null;
}

/**
 * May the user give the message (and those moving with it) a new topic? `resolution` is
 * `topicResolutionChange(old, new)`: resolving and unresolving follow `can_resolve_topics_group`
 * alone; other renames need `can_move_messages_between_topics_group` (administrators always) and,
 * below moderators, the within-channel time limit.
 */
export function mayEditTopic(
  user: Actor,
  message: MessageFacts,
  realm: RealmRecord,
  groups: GroupLookup,
  now: number,
  resolution: 'resolved' | 'unresolved' | undefined,
): Refusal | null {
  if (resolution) {
    if (!inRealmGroupSetting(user, realm, 'can_resolve_topics_group', groups)) return refuse("You don't have permission to resolve topics in this channel.");
    return null;
  }
  if (!isAdmin(user.role) && !inRealmGroupSetting(user, realm, 'can_move_messages_between_topics_group', groups)) {
    return refuse("You don't have permission to edit this message");
  }
  if (!isModerator(user.role) && !withinEditLimit(message.timestamp, realmSetting(realm, 'move_messages_within_stream_limit_seconds'), now)) {
    return refuse("The time limit for editing this message's topic has passed.");
  }
  return null;
}

/**
 * May the user move the message to `target` (undefined: no such channel)? Needs
 * `can_move_messages_between_channels_group` (administrators always), read access to the target
 * and the right to post there, and below moderators the between-channels time limit. `facts` are
 * about the target channel.
 */
export function mayMoveToChannel(
  user: Sender,
  message: MessageFacts,
  target: ChannelRecord | undefined,
  realm: RealmRecord,
  groups: GroupLookup,
  now: number,
  facts: PostFacts,
): Refusal | null {
  if (!isAdmin(user.role) && !inRealmGroupSetting(user, realm, 'can_move_messages_between_channels_group', groups)) {
    return refuse("You don't have permission to move this message");
  }
  const unreadable = mayReadChannel(user, target, facts.subscribed);
  if (unreadable) return unreadable;
  const unpostable = mayPostToChannel(user, target!, groups, facts);
  if (unpostable) return unpostable;
  if (!isModerator(user.role) && !withinEditLimit(message.timestamp, realmSetting(realm, 'move_messages_between_streams_limit_seconds'), now)) {
    return refuse("The time limit for editing this message's channel has passed");
  }
  return null;
}

/**
 * May the user delete the message? Holders of `can_delete_any_message_group` (the organization's
 * or the channel's) always; otherwise the sender (or the owner of the bot that sent it), when in
 * `can_delete_own_message_group` (either), within the delete limit (no grace). `sender` is the
 * message's sender record (undefined if missing), `channel` its channel (undefined for direct messages).
 */
export function mayDeleteMessage(
  user: Pick<UserRecord, 'id'>,
  message: MessageFacts,
  sender: Pick<UserRecord, 'isBot' | 'botOwnerId'> | undefined,
  channel: ChannelRecord | undefined,
  realm: RealmRecord,
  groups: GroupLookup,
  now: number,
): Refusal | null {
  if (inRealmGroupSetting(user, realm, 'can_delete_any_message_group', groups)) return null;
  if (inChannelGroupSetting(user.id, channel?.settings.can_delete_any_message_group, groups)) return null;
  const own = message.senderId === user.id || (sender !== undefined && sender.isBot && sender.botOwnerId === user.id);
  const mayDeleteOwn = inRealmGroupSetting(user, realm, 'can_delete_own_message_group', groups)
    || inChannelGroupSetting(user.id, channel?.settings.can_delete_own_message_group, groups);
  if (!own || !mayDeleteOwn) return refuse("You don't have permission to delete this message");
  const limit = realmSetting(realm, 'message_content_delete_limit_seconds');
  if (limit !== null && now - message.timestamp > limit) return refuse('The time limit for deleting this message has passed');
  return null;
}

// ---------------------------------------------------------------------------------------------
// Channels: creating, subscribing others

/** Guests may not subscribe (themselves or anyone) through POST /users/me/subscriptions. */
export function maySubscribe(actor: Actor): Refusal | null {
  return isGuest(actor.role) ? refuse('Not allowed for guest users') : null;
}

/** May the user create a channel of this kind (a default channel: administrators, never private)? */
export function mayCreateChannel(actor: Actor, realm: RealmRecord, groups: GroupLookup, kind: { inviteOnly: boolean; isDefault: boolean }): Refusal | null {
  const needed = kind.inviteOnly ? 'can_create_private_channel_group' : 'can_create_public_channel_group';
  if (!inRealmGroupSetting(actor, realm, needed, groups)) return refuse('Insufficient permission');
  if (kind.isDefault && !isAdmin(actor.role)) return refuse('Insufficient permission');
  if (kind.isDefault && kind.inviteOnly) return refuse('A default channel cannot be private.');
  return null;
}

/** May the user subscribe other users to existing channels (register's `can_subscribe_other_users`)? */
export function maySubscribeOthers(actor: Actor, realm: RealmRecord, groups: GroupLookup): boolean {
  return isAdmin(actor.role) || inRealmGroupSetting(actor, realm, 'can_add_subscribers_group', groups);
}

/**
 * May the actor subscribe `principals` to the channels? Subscribing others to channels that
 * already existed needs `maySubscribeOthers`; channels this very request creates need nothing more.
 */
export function mayAddSubscribers(
  actor: Actor,
  realm: RealmRecord,
  groups: GroupLookup,
  request: { principals: readonly Pick<UserRecord, 'id'>[]; includesExistingChannel: boolean },
): Refusal | null {
  const others = request.principals.some((user) => user.id !== actor.id);
  if (others && !maySubscribeOthers(actor, realm, groups) && request.includesExistingChannel) return refuse('Insufficient permission');
  return null;
}

/** May the actor unsubscribe `principals`? Themselves and their bots always; anyone else: administrators. */
export function mayRemoveSubscribers(actor: Actor, principals: readonly Pick<UserRecord, 'id' | 'botOwnerId'>[]): Refusal | null {
  if (principals.some((user) => user.id !== actor.id && user.botOwnerId !== actor.id) && !isAdmin(actor.role)) return refuse('Insufficient permission');
  return null;
}

// ---------------------------------------------------------------------------------------------
// People, statuses, profile fields, emoji, queues

/** Zulip's require_member_or_admin: guests may not (invitations, user groups). */
export function mayActAsMember(actor: Actor): Refusal | null {
  return isGuest(actor.role) ? refuse('Not allowed for guest users') : null;
}

/** Administrators create accounts and set other people's statuses. */
export function mayAdministerUsers(actor: Actor): Refusal | null {
  return isAdmin(actor.role) ? null : refuse('Insufficient permission');
}

/** Only owners change another user's email address. */
export function mayChangeOthersEmail(actor: Actor): Refusal | null {
  return isOwner(actor.role) ? null : refuse('Must be an organization owner');
}

/** A custom emoji may take a built-in emoji's name only from an administrator. */
export function mayNameEmoji(actor: Actor, builtInName: boolean): Refusal | null {
  return builtInName && !isAdmin(actor.role) ? refuse('Only administrators can override built-in emoji.') : null;
}

/** A profile field not editable by users is changed by administrators only. */
export function mayChangeProfileField(actor: Actor, field: { editableByUser: boolean }): Refusal | null {
  if (isAdmin(actor.role) || field.editableByUser) return null;
  return refuse('You are not allowed to change this field. Contact an administrator to update it.');
}

/** A queue of every public channel's messages (all_public_streams) is not for guests. */
export function mayWatchAllPublicChannels(actor: Actor): Refusal | null {
  return isGuest(actor.role) ? refuse('User not authorized for this query') : null;
}
