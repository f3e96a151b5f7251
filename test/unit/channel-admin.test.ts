/** Unit tests of the rules of channel administration, channel folders and organization settings: each allowed and refused at its edge. */
import { test } from 'tap';
import {
  CHANNEL_SETTING_NAMES, forbiddenChannelGroups, mayAdministerChannel, parseRetentionDays, plannedPrivacy, privacyPolicyName,
  CHANNEL_RETENTION_SPECIALS, REALM_RETENTION_SPECIALS, retentionNotice, descriptionNotice,
} from '../../src/domain/channel-admin.js';
import { defaultChannelSettings, type ChannelRecord } from '../../src/domain/channel-record.js';
import { checkFolderName, foldersInOrder, reorderedFolders, type ChannelFolderRecord } from '../../src/domain/channel-folders.js';
import { ApiError } from '../../src/domain/errors.js';
import type { GroupLookup, GroupRecord } from '../../src/domain/groups.js';
import { checkAuthenticationMethods, checkRealmValue, forbiddenRealmGroups, parseJitsiUrl, parseTimeLimit } from '../../src/domain/realm-settings.js';
import { Role } from '../../src/domain/roles.js';
import type { SystemGroupName } from '../../src/domain/system-groups.js';

const message = (run: () => unknown) => {
  try {
    run();
    return 'no error';
  } catch (error) {
    return error instanceof ApiError ? error.message : String(error);
  }
};

const SYSTEM = { 'role:nobody': 90, 'role:everyone': 91 } as unknown as Record<SystemGroupName, number>;
const noGroups: GroupLookup = { get: (): GroupRecord | undefined => undefined };
const channel = (creatorId: number | null): ChannelRecord => ({
  id: 7, name: 'den', description: '', renderedDescription: '', inviteOnly: false, isWebPublic: false, historyPublicToSubscribers: true,
  isDefault: false, isArchived: false, dateCreated: 0, creatorId, recipientId: 1, firstMessageId: null, messageRetentionDays: null,
  topicsPolicy: 'inherit', settings: defaultChannelSettings(SYSTEM, creatorId),
});

test('who administers a channel', async (t) => {
  const made = channel(4);
  t.equal(mayAdministerChannel({ id: 2, role: Role.ADMINISTRATOR }, made, noGroups, false), null, 'organization administrators, even without access');
  t.equal(mayAdministerChannel({ id: 4, role: Role.MEMBER }, made, noGroups, true), null, 'the creator (the default can_administer_channel_group)');
  t.equal(mayAdministerChannel({ id: 5, role: Role.MEMBER }, made, noGroups, true)?.msg, 'You do not have permission to administer this channel.');
  t.equal(mayAdministerChannel({ id: 5, role: Role.MEMBER }, made, noGroups, false)?.msg, 'Invalid channel ID', 'no access: the channel is not revealed');
  t.equal(mayAdministerChannel({ id: 4, role: Role.GUEST }, made, noGroups, true)?.msg, 'You do not have permission to administer this channel.', 'guests never hold it');
  t.equal(mayAdministerChannel({ id: 2, role: Role.OWNER }, undefined, noGroups, false)?.msg, 'Invalid channel ID');
});

test('privacy combinations, as Zulip plans them', async (t) => {
  const publicChannel = { inviteOnly: false, historyPublicToSubscribers: true, isWebPublic: false };
  t.same(plannedPrivacy(publicChannel, { isPrivate: true }), { inviteOnly: true, historyPublicToSubscribers: false, isWebPublic: false }, 'private alone protects history');
  t.same(plannedPrivacy(publicChannel, { isPrivate: true, historyPublic: true }), { inviteOnly: true, historyPublicToSubscribers: true, isWebPublic: false });
  t.same(plannedPrivacy({ ...publicChannel, inviteOnly: true, historyPublicToSubscribers: false }, { isPrivate: false }), publicChannel, 'public again shares history');
  t.equal(message(() => plannedPrivacy(publicChannel, { historyPublic: false })), 'Invalid parameters');
  t.equal(message(() => plannedPrivacy(publicChannel, { isWebPublic: true, isPrivate: true })), 'Invalid parameters');
  t.same(plannedPrivacy(publicChannel, { isWebPublic: true }), { ...publicChannel, isWebPublic: true });
  t.same([privacyPolicyName(publicChannel), privacyPolicyName({ ...publicChannel, isWebPublic: true }), privacyPolicyName({ inviteOnly: true, historyPublicToSubscribers: true, isWebPublic: false }), privacyPolicyName({ inviteOnly: true, historyPublicToSubscribers: false, isWebPublic: false })],
    ['Public', 'Web-public', 'Private, shared history', 'Private, protected history']);
});

test('retention values and notices', async (t) => {
  t.equal(parseRetentionDays(30, CHANNEL_RETENTION_SPECIALS), 30);
  t.equal(parseRetentionDays('unlimited', CHANNEL_RETENTION_SPECIALS), -1);
  t.equal(parseRetentionDays('realm_default', CHANNEL_RETENTION_SPECIALS), null);
  t.equal(message(() => parseRetentionDays('realm_default', REALM_RETENTION_SPECIALS)), "Bad value for 'message_retention_days': realm_default", 'the organization has no default to follow');
  t.equal(message(() => parseRetentionDays(0, CHANNEL_RETENTION_SPECIALS)), "Bad value for 'message_retention_days': 0");
  t.match(retentionNotice('@_**A|1**', null, 30, -1), /Old retention period\*\*: Forever\n\* \*\*New retention period\*\*: 30 days\n\nMessages in this channel will now be automatically deleted 30 days after they are sent\.$/);
  t.match(descriptionNotice('@_**A|1**', '', 'new'), /\*No description\.\*[\s\S]*new/);
});

test('which groups a setting may hold', async (t) => {
  t.same(forbiddenChannelGroups('can_send_message_group'), ['role:internet']);
  t.same(forbiddenChannelGroups('can_administer_channel_group'), ['role:internet', 'role:everyone']);
  t.equal(CHANNEL_SETTING_NAMES.length, 10);
  t.same(forbiddenRealmGroups('can_mention_many_users_group'), ['role:internet']);
  t.same(forbiddenRealmGroups('can_create_groups'), ['role:internet', 'role:everyone']);
  t.notOk(forbiddenRealmGroups('can_access_all_users_group').includes('role:members'), 'members or everyone see all users');
});

test('channel folder rules', async (t) => {
  const folder = (id: number, name: string, order: number, isArchived = false): ChannelFolderRecord => ({ id, name, description: '', renderedDescription: '', creatorId: null, dateCreated: 0, isArchived, order });
  const folders = [folder(1, 'Front', 1), folder(2, 'Back', 0, true)];
  t.equal(message(() => checkFolderName('front', folders)), 'Channel folder name already in use', 'in any case');
  t.equal(message(() => checkFolderName('Front', folders, 1)), 'no error', 'a folder keeps its own name');
  t.equal(message(() => checkFolderName('', folders)), "Channel folder name can't be empty.");
  t.equal(message(() => checkFolderName('a\u0007b', folders)), 'Invalid character in channel folder name, at position 2.');
  t.same(foldersInOrder(folders, false).map((f) => f.id), [1]);
  t.same(foldersInOrder(folders, true).map((f) => f.id), [2, 1]);
  t.same(reorderedFolders(folders, [1, 2]).map((f) => [f.id, f.order]), [[1, 0], [2, 1]]);
  t.equal(message(() => reorderedFolders(folders, [1])), 'Invalid order mapping.');
  t.equal(message(() => reorderedFolders(folders, [1, 1])), 'Invalid order mapping.');
  t.equal(message(() => reorderedFolders(folders, [1, 2, 3])), 'Invalid order mapping.');
});

test('organization setting values', async (t) => {
  t.equal(parseTimeLimit('message_content_edit_limit_seconds', 'unlimited'), null);
  t.equal(parseTimeLimit('message_content_edit_limit_seconds', 60), 60);
  t.equal(message(() => parseTimeLimit('message_content_edit_limit_seconds', -5)), "Bad value for 'message_content_edit_limit_seconds': -5");
  t.equal(parseJitsiUrl('default'), null);
  t.equal(parseJitsiUrl('https://jitsi.example.com'), 'https://jitsi.example.com');
  t.equal(message(() => parseJitsiUrl('ftp://x')), 'jitsi_server_url is not an allowed_type');
  t.equal(message(() => parseJitsiUrl(`https://${'a'.repeat(200)}.com`)), 'jitsi_server_url is not an allowed_type');
  t.equal(message(() => checkRealmValue('default_language', 'de')), 'no error');
  t.equal(message(() => checkRealmValue('default_language', 'klingon')), "Invalid language 'klingon'");
  t.equal(message(() => checkRealmValue('giphy_rating', 6)), 'Invalid giphy_rating 6');
  t.equal(message(() => checkAuthenticationMethods({ Email: true })), 'no error');
  t.equal(message(() => checkAuthenticationMethods({})), 'At least one authentication method must be enabled.');
});
