/** Unit tests of the permission rules: every rule allowed and refused for each role it depends on, and the time limits at their edges. */
import { test } from 'tap';
import { defaultChannelSettings, type ChannelRecord } from '../../src/domain/channel-record.js';
import { ApiError, badRequest } from '../../src/domain/errors.js';
import type { GroupLookup, GroupRecord, GroupSettingValue } from '../../src/domain/groups.js';
import { HISTORICAL_FLAGS } from '../../src/domain/messages.js';
import {
  mayActAsMember,
  mayAdministerUsers,
  mayChangeOthersEmail,
  mayChangeProfileField,
  mayNameEmoji,
  mayWatchAllPublicChannels,
  EDIT_GRACE_SECONDS,
  WILDCARD_MENTION_THRESHOLD,
  inRealmGroupSetting,
  knowsChannel,
  mayAddSubscribers,
  mayAlterMessageIn,
  mayCreateChannel,
  mayDeleteMessage,
  mayEditContent,
  mayEditTopic,
  mayKnowChannel,
  mayMentionManyUsers,
  mayMoveToChannel,
  mayPostToChannel,
  mayReadChannel,
  mayRemoveSubscribers,
  maySubscribe,
  maySubscribeOthers,
  mayUseWildcardMentions,
  messageAccess,
  refusalError,
  type Refusal,
} from '../../src/domain/permissions.js';
import { REALM_DEFAULTS, type RealmRecord, type RealmSettings } from '../../src/domain/realm.js';
import { Role } from '../../src/domain/roles.js';
import { directSystemGroups, SYSTEM_GROUPS, type SystemGroupName } from '../../src/domain/system-groups.js';
import { newUserRecord, type UserRecord } from '../../src/domain/users.js';

// ---- Factories: an organization of one user per role, plus bots, as plain records. ----

const NOW = 1_800_000_000;

const user = (id: number, role: Role, fields: Partial<UserRecord> = {}): UserRecord =>
  newUserRecord({ id, deliveryEmail: `u${id}@example.com`, fullName: `User ${id}`, role, apiKey: 'k', dateJoined: 0, ...fields });

const owner = user(1, Role.OWNER);
const admin = user(2, Role.ADMINISTRATOR);
const moderator = user(3, Role.MODERATOR);
const member = user(4, Role.MEMBER);
const guest = user(5, Role.GUEST);
const otherMember = user(6, Role.MEMBER);
/** A bot of `member`, and one of `admin`: bots are members of the system groups of their role. */
const memberBot = user(7, Role.MEMBER, { isBot: true, botType: 1, botOwnerId: member.id });
const adminBot = user(8, Role.MEMBER, { isBot: true, botType: 1, botOwnerId: admin.id });
/** The system's own bot belongs to no group. */
const systemBot = user(9, Role.MEMBER, { isBot: true, botType: 1, isSystemBot: true });
const everyone = [owner, admin, moderator, member, guest, otherMember, memberBot, adminBot, systemBot];

/** The five roles, each with its user, for tables of expected outcomes. */
const ROLE_USERS: [string, UserRecord][] = [['owner', owner], ['administrator', admin], ['moderator', moderator], ['member', member], ['guest', guest]];

/** System group ids 1…8 in the order Zulip creates them, plus one custom group. */
const systemGroups = Object.fromEntries(SYSTEM_GROUPS.map((definition, index) => [definition.name, index + 1])) as Record<SystemGroupName, number>;
const CUSTOM_GROUP = 50;

function buildGroups(): GroupLookup {
  const byId = new Map<number, GroupRecord>();
  const record = (id: number, name: string, directMembers: number[], directSubgroups: number[]): GroupRecord => ({
    id, name, description: '', isSystemGroup: name.startsWith('role:'), directMembers, directSubgroups, deactivated: false, creatorId: null, dateCreated: 0, settings: {},
  });
  for (const definition of SYSTEM_GROUPS) {
    const members = everyone.filter((u) => !u.isSystemBot && directSystemGroups(u.role).includes(definition.name)).map((u) => u.id);
    byId.set(systemGroups[definition.name], record(systemGroups[definition.name], definition.name, members, definition.subgroup ? [systemGroups[definition.subgroup]] : []));
  }
  // A custom group holding the guest alone: a setting can reach a guest without reaching members.
  byId.set(CUSTOM_GROUP, record(CUSTOM_GROUP, 'guests-i-trust', [guest.id], []));
  return { get: (id) => byId.get(id) };
}
const groups = buildGroups();

const realmWith = (settings: Partial<Record<string, unknown>> = {}): RealmRecord => ({
  id: 1, subdomain: '', name: 'Test', description: '', deactivated: false, dateCreated: 0, systemGroups,
  settings: { ...REALM_DEFAULTS, ...settings } as RealmSettings,
});
const realm = realmWith();
const group = (name: SystemGroupName) => systemGroups[name];

const channelWith = (fields: Partial<ChannelRecord> = {}, settings: Record<string, GroupSettingValue> = {}): ChannelRecord => ({
  id: 10, name: 'town square', description: '', renderedDescription: '', inviteOnly: false, isWebPublic: false, historyPublicToSubscribers: true,
  isDefault: false, isArchived: false, dateCreated: 0, creatorId: owner.id, recipientId: 100, firstMessageId: null, messageRetentionDays: null,
  topicsPolicy: 'inherit', settings: { ...defaultChannelSettings(systemGroups, owner.id), ...settings }, ...fields,
});
const publicChannel = channelWith();
const privateChannel = channelWith({ id: 11, name: 'secret', inviteOnly: true, historyPublicToSubscribers: false });
const privateWithHistory = channelWith({ id: 12, name: 'open book', inviteOnly: true, historyPublicToSubscribers: true });
const webPublic = channelWith({ id: 13, name: 'lobby', isWebPublic: true });
const archived = channelWith({ id: 14, name: 'attic', isArchived: true });

const sentBy = (sender: UserRecord, ageSeconds = 0) => ({ senderId: sender.id, timestamp: NOW - ageSeconds });
const subscribed = { subscribed: true, ownerSubscribed: false };
const unsubscribed = { subscribed: false, ownerSubscribed: false };

const refusal = (msg: string, code: Refusal['code'] = 'BAD_REQUEST'): Refusal => ({ code, msg });
const NO_POST = refusal('You do not have permission to post in this channel.');
const notAuthorized = (channel: ChannelRecord) => refusal(`Not authorized to send to channel '${channel.name}'`);
const INVALID_CHANNEL = refusal('Invalid channel ID');
const INSUFFICIENT = refusal('Insufficient permission');

// ---- Tests ----

test('refusals become the same errors the API throws today', async (t) => {
  const error = refusalError(refusal("You don't have permission to edit this message"));
  const expected = badRequest("You don't have permission to edit this message");
  t.ok(error instanceof ApiError);
  t.same([error.code, error.message, error.status, error.extra, error.headers], [expected.code, expected.message, expected.status, expected.extra, expected.headers]);
  const wildcard = refusalError(refusal('x', 'STREAM_WILDCARD_MENTION_NOT_ALLOWED'));
  t.same([wildcard.code, wildcard.status], ['STREAM_WILDCARD_MENTION_NOT_ALLOWED', 400]);
});

test('inRealmGroupSetting: defaults, stored groups, anonymous groups', async (t) => {
  const expectations: [string, RealmRecord, string, boolean[]][] = [
    ['default role:administrators', realm, 'can_mention_many_users_group', [true, true, false, false, false]],
    ['default role:everyone', realm, 'can_delete_own_message_group', [true, true, true, true, true]],
    ['default role:members', realm, 'can_create_public_channel_group', [true, true, true, true, false]],
    ['stored role:moderators', realmWith({ can_mention_many_users_group: group('role:moderators') }), 'can_mention_many_users_group', [true, true, true, false, false]],
    ['stored role:owners', realmWith({ can_mention_many_users_group: group('role:owners') }), 'can_mention_many_users_group', [true, false, false, false, false]],
    ['stored role:nobody', realmWith({ can_mention_many_users_group: group('role:nobody') }), 'can_mention_many_users_group', [false, false, false, false, false]],
    ['anonymous: member directly, moderators as a subgroup', realmWith({ can_mention_many_users_group: { direct_members: [member.id], direct_subgroups: [group('role:moderators')] } }), 'can_mention_many_users_group', [true, true, true, true, false]],
    ['a custom group', realmWith({ can_mention_many_users_group: CUSTOM_GROUP }), 'can_mention_many_users_group', [false, false, false, false, true]],
  ];
  for (const [label, r, setting, allowed] of expectations) {
    ROLE_USERS.forEach(([role, u], i) => t.equal(inRealmGroupSetting(u, r, setting, groups), allowed[i], `${label}: ${role}`));
  }
  t.notOk(inRealmGroupSetting(otherMember, realmWith({ can_mention_many_users_group: { direct_members: [member.id], direct_subgroups: [] } }), 'can_mention_many_users_group', groups), 'another member is not listed');
  t.notOk(inRealmGroupSetting(systemBot, realm, 'can_delete_own_message_group', groups), 'the system bot is in no group, not even role:everyone');
  t.throws(() => inRealmGroupSetting(member, realm, 'can_fly_group', groups), /unknown realm group setting/);
});

test('mayPostToChannel: public, web-public, private, archived channels by role', async (t) => {
  for (const [role, u] of ROLE_USERS) {
    const isGuest = u.role === Role.GUEST;
    t.same(mayPostToChannel(u, publicChannel, groups, unsubscribed), isGuest ? notAuthorized(publicChannel) : null, `public, unsubscribed: ${role}`);
    t.same(mayPostToChannel(u, publicChannel, groups, subscribed), null, `public, subscribed: ${role}`);
    t.same(mayPostToChannel(u, webPublic, groups, unsubscribed), null, `web-public, unsubscribed: ${role}`);
    t.same(mayPostToChannel(u, privateChannel, groups, unsubscribed), notAuthorized(privateChannel), `private, unsubscribed (administrators too): ${role}`);
    t.same(mayPostToChannel(u, privateChannel, groups, subscribed), null, `private, subscribed: ${role}`);
    t.same(mayPostToChannel(u, archived, groups, subscribed), notAuthorized(archived), `archived, even subscribed: ${role}`);
  }
});

test('mayPostToChannel: can_send_message_group, bots through their owner, the system bot', async (t) => {
  const adminsOnly = channelWith({ name: 'announce' }, { can_send_message_group: group('role:administrators') });
  const expected = [null, null, NO_POST, NO_POST, NO_POST];
  ROLE_USERS.forEach(([role, u], i) => t.same(mayPostToChannel(u, adminsOnly, groups, subscribed), expected[i], `administrators only, subscribed: ${role}`));
  const moderatorsOnly = channelWith({ name: 'mods' }, { can_send_message_group: group('role:moderators') });
  t.same(mayPostToChannel(moderator, moderatorsOnly, groups, unsubscribed), null, 'moderators only: a moderator');
  t.same(mayPostToChannel(member, moderatorsOnly, groups, unsubscribed), NO_POST, 'moderators only: a member');
  const guestsToo = channelWith({ name: 'trusted' }, { can_send_message_group: CUSTOM_GROUP });
  t.same(mayPostToChannel(guest, guestsToo, groups, subscribed), null, 'a custom group: its guest');
  t.same(mayPostToChannel(owner, guestsToo, groups, subscribed), NO_POST, 'a custom group: the owner, outside it');

  t.same(mayPostToChannel(adminBot, adminsOnly, groups, unsubscribed), null, "a bot posts with its administrator owner's group");
  t.same(mayPostToChannel(memberBot, adminsOnly, groups, unsubscribed), NO_POST, "a member's bot does not");
  t.same(mayPostToChannel(memberBot, privateChannel, groups, { subscribed: false, ownerSubscribed: true }), null, 'a bot posts where its owner is subscribed');
  t.same(mayPostToChannel(memberBot, privateChannel, groups, unsubscribed), notAuthorized(privateChannel), 'nor the bot nor its owner subscribed');
  t.same(mayPostToChannel(member, privateChannel, groups, { subscribed: false, ownerSubscribed: true }), notAuthorized(privateChannel), 'an owner subscription means nothing for a human');

  const noSendGroup = channelWith({ name: 'old secret', inviteOnly: true, settings: {} });
  t.same(mayPostToChannel(systemBot, noSendGroup, groups, unsubscribed), null, 'the system bot posts to private channels unsubscribed');
  t.same(mayPostToChannel(systemBot, { ...noSendGroup, isArchived: true }, groups, subscribed), notAuthorized(noSendGroup), 'but not to archived ones');
  t.same(mayPostToChannel(systemBot, publicChannel, groups, subscribed), NO_POST, 'as today: the system bot is in no group, so role:everyone refuses it');
});

test('mayUseWildcardMentions: channel and topic wildcards by role and size', async (t) => {
  const big = WILDCARD_MENTION_THRESHOLD + 1;
  const streamMention = (count: number) => ({ streamWildcard: true, topicWildcard: false, channelSubscriberCount: count, topicParticipants: [] });
  const topicMention = (participants: number[]) => ({ streamWildcard: false, topicWildcard: true, channelSubscriberCount: 0, topicParticipants: participants });
  const STREAM = refusal('You do not have permission to use channel wildcard mentions in this channel.', 'STREAM_WILDCARD_MENTION_NOT_ALLOWED');
  const TOPIC = refusal('You do not have permission to use topic wildcard mentions in this topic.', 'TOPIC_WILDCARD_MENTION_NOT_ALLOWED');
  const fifteenOthers = Array.from({ length: WILDCARD_MENTION_THRESHOLD }, (_, i) => 100 + i);
  const mayMany = [true, true, false, false, false];
  ROLE_USERS.forEach(([role, u], i) => {
    t.equal(mayMentionManyUsers(u, realm, groups), mayMany[i], `can_mention_many_users_group (administrators): ${role}`);
    t.same(mayUseWildcardMentions(u, realm, groups, streamMention(big)), mayMany[i] ? null : STREAM, `@all in a channel of ${big}: ${role}`);
    t.same(mayUseWildcardMentions(u, realm, groups, streamMention(WILDCARD_MENTION_THRESHOLD)), null, `@all in a channel of ${WILDCARD_MENTION_THRESHOLD}: ${role}`);
    t.same(mayUseWildcardMentions(u, realm, groups, topicMention(fifteenOthers)), mayMany[i] ? null : TOPIC, `@topic among 15 others, sender the 16th: ${role}`);
    t.same(mayUseWildcardMentions(u, realm, groups, topicMention([u.id, ...fifteenOthers.slice(1)])), null, `@topic among 15 including the sender: ${role}`);
  });
  t.same(mayUseWildcardMentions(member, realm, groups, { streamWildcard: true, topicWildcard: true, channelSubscriberCount: big, topicParticipants: fifteenOthers }), STREAM, 'the channel wildcard is refused first');
  t.same(mayUseWildcardMentions(member, realm, groups, { streamWildcard: false, topicWildcard: false, channelSubscriberCount: 1000, topicParticipants: fifteenOthers }), null, 'no wildcard, no rule');
  const everyoneMay = realmWith({ can_mention_many_users_group: group('role:everyone') });
  t.same(mayUseWildcardMentions(guest, everyoneMay, groups, streamMention(big)), null, 'the setting widened to everyone: a guest');
});

test('channel access: knowing and reading channels by role', async (t) => {
  const knowsPrivate = [true, true, false, false, false];
  ROLE_USERS.forEach(([role, u], i) => {
    const isGuest = u.role === Role.GUEST;
    t.equal(knowsChannel(u, privateChannel, false), knowsPrivate[i], `knows an unsubscribed private channel: ${role}`);
    t.same(mayKnowChannel(u, privateChannel, false), knowsPrivate[i] ? null : INVALID_CHANNEL, `mayKnowChannel, private: ${role}`);
    t.same(mayKnowChannel(u, privateChannel, true), null, `mayKnowChannel, private, subscribed: ${role}`);
    t.same(mayKnowChannel(u, publicChannel, false), isGuest ? INVALID_CHANNEL : null, `mayKnowChannel, public: ${role}`);
    t.same(mayKnowChannel(u, webPublic, false), null, `mayKnowChannel, web-public: ${role}`);
    t.same(mayReadChannel(u, privateChannel, false), INVALID_CHANNEL, `mayReadChannel, private, unsubscribed (administrators too): ${role}`);
    t.same(mayReadChannel(u, privateChannel, true), null, `mayReadChannel, private, subscribed: ${role}`);
    t.same(mayReadChannel(u, publicChannel, false), isGuest ? INVALID_CHANNEL : null, `mayReadChannel, public: ${role}`);
    t.same(mayReadChannel(u, webPublic, false), null, `mayReadChannel, web-public: ${role}`);
    t.same(mayKnowChannel(u, undefined, true), INVALID_CHANNEL, `no such channel: ${role}`);
    t.same(mayReadChannel(u, undefined, true), INVALID_CHANNEL, `no such channel: ${role}`);
  });
});

test('messageAccess: direct messages, public, private and web-public channels by role', async (t) => {
  const FLAGS = 0b1001;
  const stream = { type: 'stream' as const };
  for (const [role, u] of ROLE_USERS) {
    const isGuest = u.role === Role.GUEST;
    t.equal(messageAccess(u, { type: 'private' }, undefined, FLAGS, false), FLAGS, `a direct message they received: ${role}`);
    t.equal(messageAccess(u, { type: 'private' }, undefined, undefined, false), undefined, `a direct message they did not: ${role}`);
    t.equal(messageAccess(u, stream, publicChannel, undefined, false), isGuest ? undefined : HISTORICAL_FLAGS, `public, no record, unsubscribed: ${role}`);
    t.equal(messageAccess(u, stream, publicChannel, undefined, true), HISTORICAL_FLAGS, `public, no record, subscribed: ${role}`);
    t.equal(messageAccess(u, stream, publicChannel, FLAGS, false), isGuest ? undefined : FLAGS, `public, a record, unsubscribed: ${role}`);
    t.equal(messageAccess(u, stream, webPublic, undefined, false), HISTORICAL_FLAGS, `web-public, no record: ${role}`);
    t.equal(messageAccess(u, stream, privateChannel, FLAGS, true), FLAGS, `private, a record, subscribed: ${role}`);
    t.equal(messageAccess(u, stream, privateChannel, FLAGS, false), undefined, `private, a record, unsubscribed (administrators too): ${role}`);
    t.equal(messageAccess(u, stream, privateChannel, undefined, true), undefined, `private without shared history, no record: ${role}`);
    t.equal(messageAccess(u, stream, privateWithHistory, undefined, true), HISTORICAL_FLAGS, `private with shared history, subscribed: ${role}`);
    t.equal(messageAccess(u, stream, privateWithHistory, undefined, false), undefined, `private with shared history, unsubscribed: ${role}`);
    t.equal(messageAccess(u, stream, undefined, FLAGS, true), undefined, `the channel is gone: ${role}`);
  }
});

test('mayAlterMessageIn: messages of archived channels are frozen', async (t) => {
  t.same(mayAlterMessageIn(archived), refusal('Invalid message(s)'));
  t.same(mayAlterMessageIn(publicChannel), null);
  t.same(mayAlterMessageIn(undefined), null, 'direct messages');
});

test('mayEditContent: the sender alone, any role, while allowed and within the limit', async (t) => {
  const NOT_YOURS = refusal("You don't have permission to edit this message");
  const TOO_LATE = refusal('The time limit for editing this message has passed');
  const limit = REALM_DEFAULTS.message_content_edit_limit_seconds!;
  for (const [role, u] of ROLE_USERS) {
    t.same(mayEditContent(u, sentBy(u), realm, NOW), null, `own message: ${role}`);
    t.same(mayEditContent(u, sentBy(otherMember), realm, NOW), NOT_YOURS, `another's message: ${role}`);
    t.same(mayEditContent(u, sentBy(u, limit + EDIT_GRACE_SECONDS), realm, NOW), null, `just inside the limit and its grace: ${role}`);
    t.same(mayEditContent(u, sentBy(u, limit + EDIT_GRACE_SECONDS + 1), realm, NOW), TOO_LATE, `just outside: ${role}`);
  }
  t.same(mayEditContent(member, sentBy(member, 10 ** 8), realmWith({ message_content_edit_limit_seconds: null }), NOW), null, 'no limit');
  const short = realmWith({ message_content_edit_limit_seconds: 60 });
  t.same(mayEditContent(member, sentBy(member, 80), short, NOW), null, 'a set limit, just inside');
  t.same(mayEditContent(member, sentBy(member, 81), short, NOW), TOO_LATE, 'a set limit, just outside');
  const off = realmWith({ allow_message_editing: false });
  t.same(mayEditContent(owner, sentBy(owner), off, NOW), refusal('Your organization has turned off message editing'), 'editing turned off: even the owner');
  t.same(mayEditContent(owner, sentBy(member), off, NOW), refusal('Your organization has turned off message editing'), 'checked before ownership');
});

test('mayEditTopic: renames by group setting, administrators always, limit below moderators', async (t) => {
  const NO_EDIT = refusal("You don't have permission to edit this message");
  const TOO_LATE = refusal("The time limit for editing this message's topic has passed.");
  const limit = REALM_DEFAULTS.move_messages_within_stream_limit_seconds!;
  const inside = limit + EDIT_GRACE_SECONDS;
  for (const [role, u] of ROLE_USERS) {
    t.same(mayEditTopic(u, sentBy(otherMember, inside), realm, groups, NOW, undefined), null, `default role:everyone, just inside the limit: ${role}`);
    const exempt = u.role <= Role.MODERATOR;
    t.same(mayEditTopic(u, sentBy(otherMember, inside + 1), realm, groups, NOW, undefined), exempt ? null : TOO_LATE, `just outside the limit: ${role}`);
    t.same(mayEditTopic(u, sentBy(u, inside + 1), realm, groups, NOW, undefined), exempt ? null : TOO_LATE, `own message, just outside: ${role}`);
  }
  const moderatorsMove = realmWith({ can_move_messages_between_topics_group: group('role:moderators') });
  const nobodyMoves = realmWith({ can_move_messages_between_topics_group: group('role:nobody') });
  const withModerators = [null, null, null, NO_EDIT, NO_EDIT];
  const withNobody = [null, null, NO_EDIT, NO_EDIT, NO_EDIT];
  ROLE_USERS.forEach(([role, u], i) => {
    t.same(mayEditTopic(u, sentBy(u), moderatorsMove, groups, NOW, undefined), withModerators[i], `role:moderators may move: ${role}`);
    t.same(mayEditTopic(u, sentBy(u), nobodyMoves, groups, NOW, undefined), withNobody[i], `role:nobody (administrators regardless): ${role}`);
  });
  t.same(mayEditTopic(member, sentBy(member, 10 ** 8), realmWith({ move_messages_within_stream_limit_seconds: null }), groups, NOW, undefined), null, 'no limit');
  t.same(mayEditTopic(guest, sentBy(guest, 10 ** 8), nobodyMoves, groups, NOW, undefined), NO_EDIT, 'the group is checked before the limit');
});

test('mayEditTopic: resolving and unresolving follow can_resolve_topics_group alone', async (t) => {
  const NO_RESOLVE = refusal("You don't have permission to resolve topics in this channel.");
  for (const [role, u] of ROLE_USERS) {
    for (const resolution of ['resolved', 'unresolved'] as const) {
      t.same(mayEditTopic(u, sentBy(otherMember, 10 ** 8), realm, groups, NOW, resolution), null, `${resolution}, default role:everyone, long after any limit: ${role}`);
    }
  }
  const moderatorsResolve = realmWith({ can_resolve_topics_group: group('role:moderators'), can_move_messages_between_topics_group: group('role:nobody') });
  const nobodyResolves = realmWith({ can_resolve_topics_group: group('role:nobody') });
  const withModerators = [null, null, null, NO_RESOLVE, NO_RESOLVE];
  ROLE_USERS.forEach(([role, u], i) => {
    t.same(mayEditTopic(u, sentBy(u), moderatorsResolve, groups, NOW, 'resolved'), withModerators[i], `role:moderators resolve (moving is not needed): ${role}`);
    t.same(mayEditTopic(u, sentBy(u), nobodyResolves, groups, NOW, 'unresolved'), NO_RESOLVE, `role:nobody, no administrator exception: ${role}`);
  });
});

test('mayMoveToChannel: group setting, target access and posting, limit below moderators', async (t) => {
  const NO_MOVE = refusal("You don't have permission to move this message");
  const TOO_LATE = refusal("The time limit for editing this message's channel has passed");
  const limit = REALM_DEFAULTS.move_messages_between_streams_limit_seconds!;
  const inside = limit + EDIT_GRACE_SECONDS;
  const byDefault = [null, null, null, null, NO_MOVE];
  const nobodyMoves = realmWith({ can_move_messages_between_channels_group: group('role:nobody') });
  const withNobody = [null, null, NO_MOVE, NO_MOVE, NO_MOVE];
  const everyoneMoves = realmWith({ can_move_messages_between_channels_group: group('role:everyone') });
  ROLE_USERS.forEach(([role, u], i) => {
    const exempt = u.role <= Role.MODERATOR;
    t.same(mayMoveToChannel(u, sentBy(u), publicChannel, realm, groups, NOW, subscribed), byDefault[i], `default role:members: ${role}`);
    t.same(mayMoveToChannel(u, sentBy(u), publicChannel, nobodyMoves, groups, NOW, subscribed), withNobody[i], `role:nobody (administrators regardless): ${role}`);
    t.same(mayMoveToChannel(u, sentBy(u, inside), publicChannel, everyoneMoves, groups, NOW, subscribed), null, `just inside the limit: ${role}`);
    t.same(mayMoveToChannel(u, sentBy(u, inside + 1), publicChannel, everyoneMoves, groups, NOW, subscribed), exempt ? null : TOO_LATE, `just outside: ${role}`);
    t.same(mayMoveToChannel(u, sentBy(u), undefined, everyoneMoves, groups, NOW, subscribed), INVALID_CHANNEL, `no such target: ${role}`);
    t.same(mayMoveToChannel(u, sentBy(u), privateChannel, everyoneMoves, groups, NOW, unsubscribed), INVALID_CHANNEL, `an unsubscribed private target (administrators too): ${role}`);
    t.same(mayMoveToChannel(u, sentBy(u), archived, everyoneMoves, groups, NOW, subscribed), notAuthorized(archived), `an archived target: ${role}`);
  });
  t.same(mayMoveToChannel(guest, sentBy(guest), publicChannel, everyoneMoves, groups, NOW, unsubscribed), INVALID_CHANNEL, 'a guest, unsubscribed from a public target');
  const adminsPost = channelWith({ name: 'announce' }, { can_send_message_group: group('role:administrators') });
  t.same(mayMoveToChannel(moderator, sentBy(moderator), adminsPost, realm, groups, NOW, subscribed), NO_POST, 'a target the mover may not post to');
  t.same(mayMoveToChannel(admin, sentBy(admin), adminsPost, realm, groups, NOW, subscribed), null, 'an administrator may post there');
  t.same(mayMoveToChannel(member, sentBy(member, 10 ** 8), publicChannel, realmWith({ move_messages_between_streams_limit_seconds: null }), groups, NOW, subscribed), null, 'no limit');
  t.same(mayMoveToChannel(member, sentBy(member, 10 ** 8), undefined, realm, groups, NOW, subscribed), INVALID_CHANNEL, 'access is checked before the limit');
});

test('mayDeleteMessage: any-message and own-message groups, bots, the limit', async (t) => {
  const NO_DELETE = refusal("You don't have permission to delete this message");
  const TOO_LATE = refusal('The time limit for deleting this message has passed');
  const limit = REALM_DEFAULTS.message_content_delete_limit_seconds!;
  const deleteAny = [true, true, false, false, false];
  ROLE_USERS.forEach(([role, u], i) => {
    t.same(mayDeleteMessage(u, sentBy(otherMember), otherMember, publicChannel, realm, groups, NOW), deleteAny[i] ? null : NO_DELETE, `another's message, default role:administrators: ${role}`);
    t.same(mayDeleteMessage(u, sentBy(otherMember, 10 ** 8), otherMember, undefined, realm, groups, NOW), deleteAny[i] ? null : NO_DELETE, `another's old direct message: ${role}`);
    t.same(mayDeleteMessage(u, sentBy(u, limit), u, publicChannel, realm, groups, NOW), null, `own message, just inside the limit (no grace): ${role}`);
    t.same(mayDeleteMessage(u, sentBy(u, limit + 1), u, publicChannel, realm, groups, NOW), deleteAny[i] ? null : TOO_LATE, `own message, just outside: ${role}`);
  });
  const noOwn = realmWith({ can_delete_own_message_group: group('role:nobody') });
  const ownForModerators = realmWith({ can_delete_own_message_group: group('role:moderators') });
  const withModerators = [null, null, null, NO_DELETE, NO_DELETE];
  ROLE_USERS.forEach(([role, u], i) => {
    t.same(mayDeleteMessage(u, sentBy(u), u, publicChannel, ownForModerators, groups, NOW), withModerators[i], `own message, role:moderators may: ${role}`);
    t.same(mayDeleteMessage(u, sentBy(u), u, publicChannel, noOwn, groups, NOW), deleteAny[i] ? null : NO_DELETE, `own message, role:nobody: ${role}`);
  });
  const channelAny = channelWith({}, { can_delete_any_message_group: group('role:moderators') });
  t.same(mayDeleteMessage(moderator, sentBy(otherMember, 10 ** 8), otherMember, channelAny, realm, groups, NOW), null, "the channel's any-message group: a moderator, any age");
  t.same(mayDeleteMessage(member, sentBy(otherMember), otherMember, channelAny, realm, groups, NOW), NO_DELETE, "the channel's any-message group: a member");
  const channelOwn = channelWith({}, { can_delete_own_message_group: group('role:members') });
  t.same(mayDeleteMessage(member, sentBy(member), member, channelOwn, noOwn, groups, NOW), null, "the channel's own-message group: a member");
  t.same(mayDeleteMessage(guest, sentBy(guest), guest, channelOwn, noOwn, groups, NOW), NO_DELETE, "the channel's own-message group: a guest");
  t.same(mayDeleteMessage(member, sentBy(member, limit + 1), member, channelOwn, noOwn, groups, NOW), TOO_LATE, "the channel's own-message group keeps the limit");
  t.same(mayDeleteMessage(member, sentBy(member), member, channelWith({ settings: {} }), noOwn, groups, NOW), NO_DELETE, 'a channel without settings grants nothing');

  t.same(mayDeleteMessage(member, sentBy(memberBot), memberBot, publicChannel, realm, groups, NOW), null, "a bot's owner deletes the bot's message");
  t.same(mayDeleteMessage(member, sentBy(memberBot, limit + 1), memberBot, publicChannel, realm, groups, NOW), TOO_LATE, '… within the limit');
  t.same(mayDeleteMessage(otherMember, sentBy(memberBot), memberBot, publicChannel, realm, groups, NOW), NO_DELETE, "another member may not delete someone's bot's message");
  t.same(mayDeleteMessage(otherMember, sentBy(member), { isBot: false, botOwnerId: otherMember.id }, publicChannel, realm, groups, NOW), NO_DELETE, 'an owner id on a non-bot means nothing');
  t.same(mayDeleteMessage(member, sentBy(otherMember), undefined, publicChannel, realm, groups, NOW), NO_DELETE, 'a missing sender record');
  t.same(mayDeleteMessage(member, sentBy(member, 10 ** 8), member, publicChannel, realmWith({ message_content_delete_limit_seconds: null }), groups, NOW), null, 'no limit');
});

test('subscribing: guests, creating channels, default channels', async (t) => {
  const notGuests = [null, null, null, null, refusal('Not allowed for guest users')];
  const createByDefault = [null, null, null, null, INSUFFICIENT];
  const defaultChannels = [null, null, INSUFFICIENT, INSUFFICIENT, INSUFFICIENT];
  const privateForAdmins = realmWith({ can_create_private_channel_group: group('role:administrators') });
  const privateByAdmins = [null, null, INSUFFICIENT, INSUFFICIENT, INSUFFICIENT];
  ROLE_USERS.forEach(([role, u], i) => {
    t.same(maySubscribe(u), notGuests[i], `maySubscribe: ${role}`);
    t.same(mayCreateChannel(u, realm, groups, { inviteOnly: false, isDefault: false }), createByDefault[i], `a public channel, default role:members: ${role}`);
    t.same(mayCreateChannel(u, realm, groups, { inviteOnly: true, isDefault: false }), createByDefault[i], `a private channel, default role:members: ${role}`);
    t.same(mayCreateChannel(u, privateForAdmins, groups, { inviteOnly: true, isDefault: false }), privateByAdmins[i], `a private channel, role:administrators: ${role}`);
    t.same(mayCreateChannel(u, privateForAdmins, groups, { inviteOnly: false, isDefault: false }), createByDefault[i], `a public channel when private ones need administrators: ${role}`);
    t.same(mayCreateChannel(u, realm, groups, { inviteOnly: false, isDefault: true }), defaultChannels[i], `a default channel: ${role}`);
  });
  t.same(mayCreateChannel(admin, realm, groups, { inviteOnly: true, isDefault: true }), refusal('A default channel cannot be private.'), 'a private default channel');
  t.same(mayCreateChannel(member, realm, groups, { inviteOnly: true, isDefault: true }), INSUFFICIENT, 'permission is refused before the shape');
  t.same(mayCreateChannel(guest, realmWith({ can_create_public_channel_group: CUSTOM_GROUP }), groups, { inviteOnly: false, isDefault: false }), null, 'a setting naming the guest');
});

test('subscribing others and unsubscribing them', async (t) => {
  const byDefault = [true, true, true, true, false];
  const nobodyAdds = realmWith({ can_add_subscribers_group: group('role:nobody') });
  const withNobody = [true, true, false, false, false];
  ROLE_USERS.forEach(([role, u], i) => {
    t.equal(maySubscribeOthers(u, realm, groups), byDefault[i], `maySubscribeOthers, default role:members: ${role}`);
    t.equal(maySubscribeOthers(u, nobodyAdds, groups), withNobody[i], `maySubscribeOthers, role:nobody (administrators regardless): ${role}`);
    const others = { principals: [u, otherMember], includesExistingChannel: true };
    t.same(mayAddSubscribers(u, nobodyAdds, groups, others), withNobody[i] ? null : INSUFFICIENT, `another user to an existing channel: ${role}`);
    t.same(mayAddSubscribers(u, nobodyAdds, groups, { principals: [otherMember], includesExistingChannel: false }), null, `another user to channels just created: ${role}`);
    t.same(mayAddSubscribers(u, nobodyAdds, groups, { principals: [u], includesExistingChannel: true }), null, `oneself: ${role}`);
  });
  const mayRemove = [null, null, INSUFFICIENT, INSUFFICIENT, INSUFFICIENT];
  ROLE_USERS.forEach(([role, u], i) => {
    t.same(mayRemoveSubscribers(u, [u]), null, `unsubscribing oneself: ${role}`);
    t.same(mayRemoveSubscribers(u, [u, otherMember]), mayRemove[i], `unsubscribing another user: ${role}`);
  });
  t.same(mayRemoveSubscribers(member, [member, memberBot]), null, "a member unsubscribes their bot");
  t.same(mayRemoveSubscribers(otherMember, [memberBot]), INSUFFICIENT, "another member may not unsubscribe someone's bot");
});

test('people, statuses, profile fields, emoji and queues: who may', async (t) => {
  const as = (role: Role) => ({ id: 1, role });
  const refused = (refusal: { msg: string } | null) => refusal?.msg;
  t.equal(refused(mayActAsMember(as(Role.GUEST))), 'Not allowed for guest users');
  t.equal(mayActAsMember(as(Role.MEMBER)), null);
  t.equal(refused(mayAdministerUsers(as(Role.MODERATOR))), 'Insufficient permission');
  t.equal(mayAdministerUsers(as(Role.ADMINISTRATOR)), null);
  t.equal(refused(mayChangeOthersEmail(as(Role.ADMINISTRATOR))), 'Must be an organization owner');
  t.equal(mayChangeOthersEmail(as(Role.OWNER)), null);
  t.equal(refused(mayNameEmoji(as(Role.MEMBER), true)), 'Only administrators can override built-in emoji.');
  t.equal(mayNameEmoji(as(Role.MEMBER), false), null);
  t.equal(mayNameEmoji(as(Role.ADMINISTRATOR), true), null);
  t.match(refused(mayChangeProfileField(as(Role.MEMBER), { editableByUser: false })), /not allowed to change this field/);
  t.equal(mayChangeProfileField(as(Role.MEMBER), { editableByUser: true }), null);
  t.equal(mayChangeProfileField(as(Role.ADMINISTRATOR), { editableByUser: false }), null);
  t.equal(refused(mayWatchAllPublicChannels(as(Role.GUEST))), 'User not authorized for this query');
  t.equal(mayWatchAllPublicChannels(as(Role.MEMBER)), null);
});
