/** Unit tests of the pure rules: roles, email visibility, user objects, groups, avatars, credentials. */
import { test } from 'tap';
import { Role, roleChangeError, isAdmin, isModerator } from '../../src/domain/roles.js';
import { apiEmail, canSeeEmail, EmailVisibility, formatUser, isoDate, newUserRecord } from '../../src/domain/users.js';
import { directSystemGroups, roleIsIn } from '../../src/domain/system-groups.js';
import { isGroupMember, settingIncludes, type GroupRecord } from '../../src/domain/groups.js';
import { gravatarUrl } from '../../src/domain/avatar.js';
import { execFileSync } from 'node:child_process';
import { childEnv } from '../helpers/temp.js';
import { generateApiKey, hashPassword, secretsEqual, setPasswordHashCost, verifyPassword } from '../../src/domain/credentials.js';

const user = (id: number, role: Role, visibility: number = EmailVisibility.EVERYONE) =>
  newUserRecord({ id, deliveryEmail: `u${id}@example.com`, fullName: `User ${id}`, role, apiKey: 'k', emailAddressVisibility: visibility as EmailVisibility, dateJoined: 0 });

test('roles: hierarchy and role changes', async (t) => {
  t.ok(isAdmin(Role.OWNER));
  t.notOk(isAdmin(Role.MODERATOR));
  t.ok(isModerator(Role.ADMINISTRATOR));
  t.equal(roleChangeError(Role.MEMBER, Role.MEMBER, Role.ADMINISTRATOR, 1), 'Insufficient permission');
  t.equal(roleChangeError(Role.ADMINISTRATOR, Role.MEMBER, Role.OWNER, 1), 'Must be an organization owner');
  t.equal(roleChangeError(Role.ADMINISTRATOR, Role.OWNER, Role.MEMBER, 2), 'Must be an organization owner');
  t.match(roleChangeError(Role.OWNER, Role.OWNER, Role.MEMBER, 1), /only organization owner/);
  t.equal(roleChangeError(Role.OWNER, Role.OWNER, Role.MEMBER, 2), undefined);
  t.equal(roleChangeError(Role.ADMINISTRATOR, Role.GUEST, Role.MEMBER, 1), undefined);
});

test('email visibility: who sees the real address, and the API address', async (t) => {
  const admin = user(1, Role.ADMINISTRATOR);
  const moderator = user(2, Role.MODERATOR);
  const member = user(3, Role.MEMBER);
  const guest = user(4, Role.GUEST);
  const adminsOnly = user(5, Role.MEMBER, EmailVisibility.ADMINS);
  const membersOnly = user(6, Role.MEMBER, EmailVisibility.MEMBERS);
  const moderatorsOnly = user(7, Role.MEMBER, EmailVisibility.MODERATORS);
  const nobody = user(8, Role.MEMBER, EmailVisibility.NOBODY);
  t.ok(canSeeEmail(guest, member));
  t.ok(canSeeEmail(undefined, member), 'everyone means everyone');
  t.ok(canSeeEmail(admin, adminsOnly));
  t.notOk(canSeeEmail(moderator, adminsOnly));
  t.ok(canSeeEmail(member, membersOnly));
  t.notOk(canSeeEmail(guest, membersOnly));
  t.ok(canSeeEmail(moderator, moderatorsOnly));
  t.notOk(canSeeEmail(member, moderatorsOnly));
  t.notOk(canSeeEmail(admin, nobody));
  t.ok(canSeeEmail(nobody, nobody), 'everyone sees their own');
  t.equal(apiEmail(member, 'chat.example.com'), 'u3@example.com');
  t.equal(apiEmail(adminsOnly, 'chat.example.com'), 'user5@chat.example.com');

  const options = { host: 'chat.example.com', realmUrl: 'https://chat.example.com', clientGravatar: false, includeProfileData: false };
  const seenByMember = formatUser(adminsOnly, member, options);
  t.equal(seenByMember.delivery_email, null);
  t.equal(seenByMember.email, 'user5@chat.example.com');
  t.equal(seenByMember.avatar_url, gravatarUrl('u5@example.com', 1));
  t.equal(formatUser(adminsOnly, admin, options).delivery_email, 'u5@example.com');
  t.equal(formatUser(member, admin, { ...options, clientGravatar: true }).avatar_url, null, 'client_gravatar: the client computes it');
  t.not(formatUser(adminsOnly, admin, { ...options, clientGravatar: true }).avatar_url, null, 'but not for a user whose email is not public');
  t.equal(isoDate(Date.UTC(2019, 9, 20, 7, 50, 53, 728)), '2019-10-20T07:50:53.728000+00:00');
  const bot = newUserRecord({ id: 9, deliveryEmail: 'bot@example.com', fullName: 'Bot', role: Role.MEMBER, apiKey: 'k', isBot: true, botType: 1, botOwnerId: 1 });
  const botJson = formatUser(bot, guest, { ...options, includeProfileData: true });
  t.equal(botJson.bot_type, 1);
  t.equal(botJson.bot_owner_id, 1);
  t.notOk('profile_data' in botJson, 'bots have no profile data');
  t.same(formatUser({ ...member, profileData: { '3': 'x' } }, admin, { ...options, includeProfileData: true }).profile_data, { '3': { value: 'x' } });
});

test('system groups follow roles; group settings include subgroups', async (t) => {
  t.same(directSystemGroups(Role.MEMBER), ['role:fullmembers', 'role:members']);
  t.same(directSystemGroups(Role.OWNER), ['role:owners']);
  t.ok(roleIsIn(Role.OWNER, 'role:moderators'));
  t.notOk(roleIsIn(Role.GUEST, 'role:members'));
  const group = (id: number, members: number[], subgroups: number[]): GroupRecord => ({
    id, name: `g${id}`, description: '', isSystemGroup: false, directMembers: members, directSubgroups: subgroups,
    deactivated: false, creatorId: null, dateCreated: 0, settings: {},
  });
  const groups = new Map([1, 2, 3].map((id) => [id, group(id, [id * 10], id < 3 ? [id + 1] : [1])]));
  const lookup = { get: (id: number) => groups.get(id) };
  t.ok(isGroupMember(30, 1, lookup), 'members of subgroups of subgroups');
  t.ok(isGroupMember(10, 3, lookup), 'cycles terminate');
  t.notOk(isGroupMember(99, 1, lookup));
  t.ok(settingIncludes(99, { direct_members: [99], direct_subgroups: [] }, lookup));
  t.ok(settingIncludes(30, { direct_members: [], direct_subgroups: [2] }, lookup));
  t.notOk(settingIncludes(5, 2, lookup));
});

test('credentials: API keys, scrypt hashes, constant-time comparison', async (t) => {
  const key = generateApiKey();
  t.match(key, /^[A-Za-z0-9]{32}$/);
  t.not(generateApiKey(), key);
  // This file may share its process with files that start servers at the test cost
  // (test/helpers/test-groups.ts): the production cost is set here, and the test cost after.
  setPasswordHashCost('full');
  t.teardown(() => setPasswordHashCost('test'));
  const hash = await hashPassword('secret');
  t.match(hash, /^scrypt\$16384\$8\$1\$/);
  t.notMatch(hash, /secret/);
  t.ok(await verifyPassword('secret', hash));
  t.notOk(await verifyPassword('Secret', hash));
  t.notOk(await verifyPassword('secret', null));
  t.ok(secretsEqual('abc', 'abc'));
  t.notOk(secretsEqual('abc', 'abd'));
  t.notOk(secretsEqual('abc', 'abcd'));
  // A process that never sets the cost, as a server process, hashes at the production cost.
  const module = new URL('../../src/domain/credentials.js', import.meta.url).href;
  const fresh = execFileSync(process.execPath, ['--input-type=module', '-e', `const { hashPassword } = await import(${JSON.stringify(module)}); process.stdout.write(await hashPassword('x'));`], { encoding: 'utf8', env: childEnv() });
  t.match(fresh, /^scrypt\$16384\$8\$1\$/, 'the default cost is the production one');
});

test('uploads: file names, path ids, links, types, ranges and access', async (t) => {
  const uploads = await import('../../src/domain/uploads.js');
  t.equal(uploads.sanitizeFileName('my report (final) #2.txt'), 'my-report-final-2.txt');
  t.equal(uploads.sanitizeFileName('  ..  '), 'uploaded-file');
  t.equal(uploads.sanitizeFileName('\u0000?*'), 'uploaded-file');
  t.equal(uploads.sanitizeFileName('Ünïcødé  名前.txt'), 'Ünïcødé-名前.txt');
  t.equal(Buffer.byteLength(uploads.sanitizeFileName('é'.repeat(300) + '.txt')) <= 255, true);
  t.match(uploads.sanitizeFileName('é'.repeat(300) + '.txt'), /\.txt$/, 'a long name keeps its extension');
  t.equal(uploads.uploadPathId(2, 0x4e, 'TOKEN', 'a.txt'), '2/4e/TOKEN/a.txt');
  t.equal(uploads.uploadPathId(2, 7, 'TOKEN', 'a.txt'), '2/7/TOKEN/a.txt', 'the byte in hex, unpadded, as Zulip');
  t.same(uploads.linkedPathIds('<p>no uploads here: <a href="https://x.org/">x</a></p>'), []);
  t.same(uploads.linkedPathIds('<a href="/user_uploads/2/ab/T/a.txt">a</a> <a href="/user_uploads/2/ab/T/a.txt">again</a> <img src="/user_uploads/thumbnail/2/x/y/z.png/840x560.webp"> <a href="https://x.org/user_uploads/2/q">ext</a>'), ['2/ab/T/a.txt']);
  t.equal(uploads.uploadContentType('', 'x.PNG'), 'image/png');
  t.equal(uploads.uploadContentType('application/octet-stream', 'x.pdf'), 'application/pdf');
  t.equal(uploads.uploadContentType('text/csv', 'x.pdf'), 'text/csv');
  t.equal(uploads.uploadContentType('', 'x.unknown'), 'application/octet-stream');
  t.equal(uploads.withCharset('text/plain', Buffer.from('héllo')), 'text/plain; charset=utf-8');
  t.equal(uploads.withCharset('text/plain', Buffer.from([0xff, 0xfe, 0x00])), 'text/plain');
  t.equal(uploads.contentDisposition('a "b".txt', true), 'inline; filename="a \\"b\\".txt"');
  t.equal(uploads.contentDisposition('é.txt', false), "attachment; filename*=utf-8''%C3%A9.txt");
  t.same(uploads.parseRange('bytes=0-0', 10), { start: 0, end: 0 });
  t.same(uploads.parseRange('bytes=5-100', 10), { start: 5, end: 9 });
  t.same(uploads.parseRange('bytes=-4', 10), { start: 6, end: 9 });
  t.same(uploads.parseRange('bytes=-40', 10), { start: 0, end: 9 });
  t.equal(uploads.parseRange('bytes=10-', 10), 'unsatisfiable');
  t.equal(uploads.parseRange('bytes=-0', 10), 'unsatisfiable');
  t.equal(uploads.parseRange('bytes=5-2', 10), undefined, 'malformed: the whole file');
  t.equal(uploads.parseRange('items=0-1', 10), undefined);
  t.equal(uploads.parseRange('', 10), undefined);
  const record = { id: 1, pathId: '2/a/T/x', name: 'x', size: 1, sha256: 's', contentType: 'text/plain', ownerId: 4, createTime: 0, messageIds: [10, 11] };
  t.ok(uploads.mayReadAttachment(4, record, () => false), 'the owner');
  t.ok(uploads.mayReadAttachment(5, record, (id) => id === 11), 'a reader of one linking message');
  t.notOk(uploads.mayReadAttachment(5, record, () => false), 'nobody else');
  t.same(uploads.defaultThumbnail('2/a/T/x.gif', { width: 1, height: 1, frames: 4 }), { url: '/user_uploads/thumbnail/2/a/T/x.gif/840x560-anim.webp', animated: true });
  t.same(uploads.formatsFor({ width: 1, height: 1, frames: 1 }).map(uploads.formatName), ['840x560.webp']);
});

test('custom emoji: names, who may deactivate, and the one emoji lookup', async (t) => {
  const emoji = await import('../../src/domain/realm-emoji.js');
  const { ApiError } = await import('../../src/domain/errors.js');
  const refused = (fn: () => void) => {
    try {
      fn();
      return undefined;
    } catch (error) {
      return error instanceof ApiError ? error.message : String(error);
    }
  };
  t.equal(refused(() => emoji.checkEmojiName('green_tick')), undefined);
  t.equal(refused(() => emoji.checkEmojiName('a-1')), undefined);
  t.equal(refused(() => emoji.checkEmojiName('')), 'Emoji name is missing');
  t.equal(refused(() => emoji.checkEmojiName('tick_')), 'Emoji names must end with either a letter or digit.');
  t.equal(refused(() => emoji.checkEmojiName('Tick')), 'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.');
  t.equal(emoji.normalizeEmojiName(' two words '), 'two_words');
  t.ok(emoji.isBuiltInEmoji('tada'));
  t.ok(emoji.isBuiltInEmoji('zulip'));
  t.notOk(emoji.isBuiltInEmoji('company_logo'));
  const record = { id: 7, name: 'logo', fileName: 'abcd.png', sha256: 's', contentType: 'image/png', authorId: 4, deactivated: false };
  t.ok(emoji.mayDeactivateEmoji(4, false, record), 'its author');
  t.ok(emoji.mayDeactivateEmoji(2, true, record), 'an administrator');
  t.notOk(emoji.mayDeactivateEmoji(5, false, record), 'anyone else');
  t.same(emoji.realmEmojiObject(2, record), { id: '7', name: 'logo', source_url: '/user_avatars/2/emoji/images/abcd.png', still_url: null, deactivated: false, author_id: 4 });
  const old = { ...record, id: 3, deactivated: true };
  const lookup = {
    activeByName: (name: string) => (name === 'logo' ? record : undefined),
    byCode: (code: string) => (code === '7' ? record : code === '3' ? old : undefined),
  };
  t.same(emoji.emojiByName(lookup, 'logo'), { code: '7', type: 'realm_emoji' }, 'custom emoji first');
  t.same(emoji.emojiByName(lookup, 'zulip'), { code: 'zulip', type: 'zulip_extra_emoji' });
  t.same(emoji.emojiByName(lookup, 'tada'), { code: '1f389', type: 'unicode_emoji' });
  t.equal(refused(() => emoji.emojiByName(lookup, 'nope')), "Emoji 'nope' does not exist");
  t.equal(refused(() => emoji.checkEmoji(lookup, 'logo', '7', 'realm_emoji')), undefined);
  t.equal(refused(() => emoji.checkEmoji(lookup, 'other', '7', 'realm_emoji')), 'Invalid custom emoji name.');
  t.equal(refused(() => emoji.checkEmoji(lookup, 'logo', '99', 'realm_emoji')), 'Invalid custom emoji.');
  t.equal(refused(() => emoji.checkEmoji(lookup, 'logo', '3', 'realm_emoji')), 'This custom emoji has been deactivated.');
  t.equal(refused(() => emoji.checkEmoji(lookup, 'tada', '1f389', 'unicode_emoji')), undefined);
  t.equal(refused(() => emoji.checkEmoji(lookup, 'zulip', 'zulip', 'zulip_extra_emoji')), undefined);
});
