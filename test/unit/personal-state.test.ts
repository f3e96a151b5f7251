/** Unit tests of the pure rules of personal state: alert words and their matcher, user status, muted users, setting values. */
import { test } from 'tap';
import { ApiError } from '../../src/domain/errors.js';
import { AlertWordMatcher, withAlertWords, withoutAlertWords } from '../../src/domain/alert-words.js';
import { NO_STATUS, planStatusChange, statusObject } from '../../src/domain/user-status.js';
import { withMutedUser, withoutMutedUser } from '../../src/domain/muted-users.js';
import { checkSettingValue, userSettings } from '../../src/domain/user-settings.js';
import { checkFullName } from '../../src/domain/users.js';
import type { RealmEmojiLookup, RealmEmojiRecord } from '../../src/domain/realm-emoji.js';

const checkFullNameRules = (raw: string) => checkFullName(raw, 100);

const badRequest = (message: string) => ({ constructor: ApiError, code: 'BAD_REQUEST', status: 400, message });

test('alert word lists', async (t) => {
  t.same(withAlertWords([], [' Foo ', 'foo', 'BAR', '', ' ']), ['foo', 'BAR'], 'trimmed, blanks dropped, one spelling per word (the last given), in first-given order');
  t.same(withAlertWords(['foo'], ['FOO', 'baz']), ['foo', 'baz'], 'existing words are not repeated, whatever their case; new ones are appended');
  t.throws(() => withAlertWords([], ['ok', 'x'.repeat(101)]), badRequest('alert_words[1] is too long (limit: 100 characters)'));
  t.same(withAlertWords([], ['😀'.repeat(100)]).length, 1, 'the limit counts characters');
  t.same(withoutAlertWords(['Foo', 'bar'], ['fOO', 'nope']), ['bar'], 'removal ignores case');
});

test('the alert word matcher', async (t) => {
  const matcher = new AlertWordMatcher([[1, ['foo', 'Foo Bar']], [2, ['BAR']], [3, ['oo']], [4, ['Ünïcode']]]);
  const alerted = (text: string) => [...matcher.alerted(text)].sort();
  t.same(alerted('foo'), [1]);
  t.same(alerted('Foo Bar!'), [1, 2], 'overlapping words are all found');
  t.same(alerted('foobar'), [], 'inside a longer word nothing counts');
  t.same(alerted('a (foo) and [bar]'), [1, 2]);
  t.same(alerted('*foo*, `bar`'), [1, 2]);
  t.same(alerted('>foo'), [1], 'a quote marker may stand before');
  t.same(alerted('foo-bar'), [], 'a hyphen joins words');
  t.same(alerted('zoo'), []);
  t.same(alerted('an oo'), [3]);
  t.same(alerted('ÜNÏCODE rocks'), [4], 'case-insensitive beyond ASCII');
  t.same(alerted('nothing here'), []);
  t.ok(new AlertWordMatcher([]).empty);
  t.same([...new AlertWordMatcher([]).alerted('anything')], []);
  const shared = new AlertWordMatcher([[1, ['same']], [2, ['same']]]);
  t.same([...shared.alerted('the same')].sort(), [1, 2], 'one word of several users');
});

const NO_CUSTOM: RealmEmojiLookup = { activeByName: () => undefined, byCode: () => undefined };
const LOGO: RealmEmojiRecord = { id: 7, name: 'company_logo', fileName: 'p.png', sha256: 'x', contentType: 'image/png', authorId: 1, deactivated: false };
const WITH_LOGO: RealmEmojiLookup = {
  activeByName: (name) => (name === 'company_logo' ? LOGO : undefined),
  byCode: (code) => (code === '7' ? LOGO : undefined),
};

test('status changes', async (t) => {
  t.throws(() => planStatusChange(NO_STATUS, {}, NO_CUSTOM), badRequest('Client did not pass any new values.'));
  t.throws(() => planStatusChange(NO_STATUS, { status_text: 'x', emoji_code: '1f697' }, NO_CUSTOM), badRequest('Client must pass emoji_name if they pass either emoji_code or reaction_type.'));
  t.throws(() => planStatusChange(NO_STATUS, { status_text: ' '.repeat(10) + 'x'.repeat(61) }, NO_CUSTOM), badRequest('status_text is too long (limit: 60 characters)'));
  const { status, changed } = planStatusChange(NO_STATUS, { status_text: '  lunch  ', emoji_name: 'car' }, NO_CUSTOM);
  t.same(status, { text: 'lunch', emojiName: 'car', emojiCode: '1f697', reactionType: 'unicode_emoji' });
  t.same(changed, { status_text: 'lunch', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' });
  t.same(planStatusChange(status, { emoji_name: '' }, NO_CUSTOM).status, { text: 'lunch', emojiName: '', emojiCode: '', reactionType: 'unicode_emoji' });
  t.same(planStatusChange(status, { away: true }, NO_CUSTOM).changed, { away: true });
  t.same(statusObject(status, true), { status_text: 'lunch', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' });
  t.same(statusObject(NO_STATUS, false), { away: true });
  t.same(statusObject(undefined, true), {});
  const custom = planStatusChange(NO_STATUS, { emoji_name: 'company_logo' }, WITH_LOGO).status;
  t.same(custom, { text: '', emojiName: 'company_logo', emojiCode: '7', reactionType: 'realm_emoji' }, 'a custom emoji by name');
  t.throws(() => planStatusChange(NO_STATUS, { emoji_name: 'company_logo' }, NO_CUSTOM), badRequest("Emoji 'company_logo' does not exist"));
  t.throws(() => planStatusChange(NO_STATUS, { emoji_name: 'company_logo', emoji_code: '8', reaction_type: 'realm_emoji' }, WITH_LOGO), badRequest('Invalid custom emoji.'));
});

test('muted user lists', async (t) => {
  t.throws(() => withMutedUser(1, [], 1, true, 10), badRequest('Cannot mute self'));
  t.throws(() => withMutedUser(1, [], 2, false, 10), badRequest('No such user'));
  const list = withMutedUser(1, [], 2, true, 10);
  t.same(list, [{ id: 2, timestamp: 10 }]);
  t.throws(() => withMutedUser(1, list, 2, true, 11), badRequest('User already muted'));
  t.throws(() => withoutMutedUser(list, 3, true), badRequest('User is not muted'));
  t.throws(() => withoutMutedUser(list, 3, false), badRequest('No such user'));
  t.same(withoutMutedUser(list, 2, true), []);
});

test('setting values', async (t) => {
  t.throws(() => checkSettingValue('default_language', 'xx'), badRequest('Invalid default_language'));
  t.doesNotThrow(() => checkSettingValue('default_language', 'pt-br'));
  t.throws(() => checkSettingValue('timezone', ''), badRequest('timezone is not a recognized time zone'));
  t.doesNotThrow(() => checkSettingValue('timezone', 'America/New_York'));
  t.doesNotThrow(() => checkSettingValue('timezone', 'US/Eastern'), 'aliases of the tz database too');
  t.doesNotThrow(() => checkSettingValue('timezone', 'UTC'));
  t.throws(() => checkSettingValue('timezone', 'america/new_york'), badRequest('timezone is not a recognized time zone'), 'names are exact');
  t.doesNotThrow(() => checkSettingValue('notification_sound', 'none'));
  t.throws(() => checkSettingValue('email_notifications_batching_period_seconds', -1), badRequest('Invalid email batching period: -1 seconds'));
  t.doesNotThrow(() => checkSettingValue('enter_sends', true), 'types are the schema\'s business');
  const settings = userSettings({ settings: { enter_sends: true }, timezone: 'UTC', emailAddressVisibility: 4 });
  t.match(settings, { enter_sends: true, timezone: 'UTC', email_address_visibility: 4, enable_drafts_synchronization: true, color_scheme: 1 });
});

test('full names', async (t) => {
  t.equal(checkFullNameRules('  Prince Hamlet \n'), 'Prince Hamlet');
  t.throws(() => checkFullNameRules('x'), badRequest('Name too short!'));
  t.equal(checkFullNameRules('😀😀'), '😀😀', 'lengths count characters');
  t.throws(() => checkFullNameRules('😀'.repeat(101)), badRequest('Name too long!'));
  t.throws(() => checkFullNameRules('a\u0000b'), badRequest('Invalid characters in name!'));
  t.throws(() => checkFullNameRules('Iago|2'), badRequest('Invalid format!'));
  t.equal(checkFullNameRules('Iago | the ensign'), 'Iago | the ensign');
});
