/** Unit tests of the pure rules of administering users and custom profile fields (domain/roles, users, profile-fields). */
import { test } from 'tap';
import { ApiError } from '../../src/domain/errors.js';
import { adminAccessError, deactivationError, ownDeactivationError, Role, roleChangeError } from '../../src/domain/roles.js';
import { checkFullName } from '../../src/domain/users.js';
import {
  checkExternalAccountFieldData, checkFieldDefinition, checkFieldValue, checkSelectFieldData, checkSummaryLimit, fieldObject,
  FieldType, inOrder, isDate, isEmptyValue, isUrl, type ProfileFieldRecord,
} from '../../src/domain/profile-fields.js';

const badRequest = (message: string) => ({ constructor: ApiError, code: 'BAD_REQUEST', status: 400, message });

const field = (type: number, extra: Partial<ProfileFieldRecord> = {}): ProfileFieldRecord => ({
  id: 1, name: 'Field', hint: '', type: type as ProfileFieldRecord['type'], fieldData: null, order: 1,
  displayInProfileSummary: false, required: false, editableByUser: true, ...extra,
});
const users = (id: number) => (id === 1 ? { isBot: false, isActive: true } : id === 2 ? { isBot: true, isActive: true } : id === 3 ? { isBot: false, isActive: false } : undefined);

test('roles: guests are not made administrators', async (t) => {
  t.equal(roleChangeError(Role.OWNER, Role.GUEST, Role.ADMINISTRATOR, 1), 'Guests cannot be organization administrators');
  t.equal(roleChangeError(Role.OWNER, Role.GUEST, Role.OWNER, 1), 'Guests cannot be organization administrators');
  t.equal(roleChangeError(Role.ADMINISTRATOR, Role.GUEST, Role.MODERATOR, 1), undefined);
});

test('deactivation: who may, and the owners kept', async (t) => {
  const member = { role: Role.MEMBER, isActive: true, isBot: false };
  const owner = { role: Role.OWNER, isActive: true, isBot: false };
  t.equal(deactivationError(Role.MODERATOR, member, 1), 'Insufficient permission');
  t.equal(deactivationError(Role.ADMINISTRATOR, member, 1), undefined);
  t.equal(deactivationError(Role.ADMINISTRATOR, { ...member, isActive: false }, 1), 'User is deactivated', 'an inactive target comes first, as Zulip');
  t.equal(deactivationError(Role.ADMINISTRATOR, owner, 2), 'Must be an organization owner');
  t.equal(deactivationError(Role.OWNER, owner, 1), 'Cannot deactivate the only organization owner');
  t.equal(deactivationError(Role.OWNER, owner, 2), undefined);
  t.equal(adminAccessError(Role.MEMBER, { isActive: false }, true), 'Insufficient permission');
  t.equal(adminAccessError(Role.ADMINISTRATOR, { isActive: false }, true), undefined);
  t.same(ownDeactivationError(member, 1, 1), { entity: 'user', isLastOwner: false });
  t.same(ownDeactivationError(owner, 5, 1), { entity: 'organization owner', isLastOwner: true });
  t.equal(ownDeactivationError(owner, 5, 2), undefined);
  t.equal(ownDeactivationError(member, 5, 1), undefined);
});

test('full names: Zulip check_full_name', async (t) => {
  t.equal(checkFullName('  Hamlet  ', 100), 'Hamlet');
  t.throws(() => checkFullName('H', 100), badRequest('Name too short!'));
  t.throws(() => checkFullName('x'.repeat(101), 100), badRequest('Name too long!'));
  t.equal(checkFullName('😀'.repeat(100), 100), '😀'.repeat(100), 'length in code points');
  for (const c of ['*', '`', '\\', '>', '"', '@']) t.throws(() => checkFullName(`a${c}b`, 100), badRequest('Invalid characters in name!'), c);
  t.throws(() => checkFullName('Hamlet|15', 100), badRequest('Invalid format!'));
  t.equal(checkFullName('Hamlet|x', 100), 'Hamlet|x');
});

test('profile fields: definitions', async (t) => {
  const def = (type: number, extra: Record<string, unknown> = {}) => ({ name: 'N', hint: '', type, fieldData: {}, displayInProfileSummary: false, ...extra });
  t.doesNotThrow(() => checkFieldDefinition(def(FieldType.SHORT_TEXT)));
  t.throws(() => checkFieldDefinition(def(FieldType.SHORT_TEXT, { name: ' ' })), badRequest('Label cannot be blank.'));
  t.throws(() => checkFieldDefinition(def(0)), badRequest('Invalid field type.'));
  t.throws(() => checkFieldDefinition(def(FieldType.LONG_TEXT, { displayInProfileSummary: true })), badRequest('Field type not supported for display in profile summary.'));
  t.throws(() => checkFieldDefinition(def(FieldType.USER, { displayInProfileSummary: true })), badRequest('Field type not supported for display in profile summary.'));
  t.doesNotThrow(() => checkFieldDefinition(def(FieldType.EXTERNAL_ACCOUNT, { name: '', fieldData: { subtype: 'github' } })), 'a built-in account needs no name');
  t.throws(() => checkSelectFieldData({}), badRequest('Field must have at least one choice.'));
  t.throws(() => checkSelectFieldData({ a: { text: 'A', order: 1 } }), badRequest('field_data["a"]["order"] is not a string'));
  t.throws(() => checkSelectFieldData({ a: { text: '', order: '1' } }), badRequest('field_data["a"]["text"] cannot be blank.'));
  t.doesNotThrow(() => checkSelectFieldData({ a: { text: 'A', order: '1' } }));
  t.throws(() => checkExternalAccountFieldData({}), badRequest('subtype key is missing from field_data'));
  t.throws(() => checkExternalAccountFieldData({ subtype: 'custom', url_pattern: 'https://x.example/%(username)s/%(username)s' }), badRequest("URL pattern must contain '%(username)s'."));
  t.doesNotThrow(() => checkExternalAccountFieldData({ subtype: 'custom', url_pattern: 'https://x.example/%(username)s' }));
  const summary = (id: number) => field(FieldType.SHORT_TEXT, { id, displayInProfileSummary: true });
  t.doesNotThrow(() => checkSummaryLimit([summary(1)]));
  t.throws(() => checkSummaryLimit([summary(1), summary(2)]), badRequest('Only 2 custom profile fields can be displayed in the profile summary.'));
  t.same(inOrder([field(1, { id: 1, order: 5 }), field(1, { id: 2, order: 0 })]).map((f) => f.id), [2, 1]);
  t.same(fieldObject(field(FieldType.SELECT, { fieldData: { a: { text: 'A', order: '1' } } })).field_data, '{"a":{"text":"A","order":"1"}}');
  t.notOk('display_in_profile_summary' in fieldObject(field(1)), 'only shown when true');
});

test('profile fields: values', async (t) => {
  t.equal(checkFieldValue(field(FieldType.SHORT_TEXT), 'x'.repeat(50), users), 'x'.repeat(50));
  t.throws(() => checkFieldValue(field(FieldType.SHORT_TEXT), 'x'.repeat(51), users), badRequest('Field is too long (limit: 50 characters)'));
  t.throws(() => checkFieldValue(field(FieldType.PRONOUNS), 7, users), badRequest('Field is not a string'));
  t.equal(checkFieldValue(field(FieldType.LONG_TEXT), 'x'.repeat(500), users).length, 500);
  t.equal(checkFieldValue(field(FieldType.DATE), '2024-02-29', users), '2024-02-29');
  t.throws(() => checkFieldValue(field(FieldType.DATE), '2023-02-29', users), badRequest('Field is not a date'));
  t.throws(() => checkFieldValue(field(FieldType.URL), 'javascript:alert(1)', users), badRequest('Field is not a URL'));
  t.equal(checkFieldValue(field(FieldType.USER), [1], users), '[1]');
  t.throws(() => checkFieldValue(field(FieldType.USER), [2], users), badRequest('User with ID 2 is a bot'));
  t.throws(() => checkFieldValue(field(FieldType.USER), [3], users), badRequest('User with ID 3 is deactivated'));
  t.throws(() => checkFieldValue(field(FieldType.USER), [9], users), badRequest('Invalid user ID: 9'));
  t.throws(() => checkFieldValue(field(FieldType.USER), ['1'], users), badRequest('User IDs[0] is not an integer'));
  const select = field(FieldType.SELECT, { name: 'Editor', fieldData: { vim: { text: 'Vim', order: '1' } } });
  t.equal(checkFieldValue(select, 'vim', users), 'vim');
  t.throws(() => checkFieldValue(select, 'toString', users), badRequest("'toString' is not a valid choice for 'Editor'."), 'own keys only');
  t.ok(isDate('1600-01-01'));
  t.notOk(isDate('1600-1-01'));
  t.ok(isUrl('https://example.com/a?b#c'));
  t.notOk(isUrl('https:// example.com'));
  t.ok(isEmptyValue('') && isEmptyValue([]) && isEmptyValue(null));
  t.notOk(isEmptyValue('0'));
});
