/** Unit tests of the personal-records actors and the pure rules of drafts, navigation views, saved snippets and push devices. */
import { test } from 'tap';
import { PersonalRecords, recordsKind } from '../../src/actors/personal-records.js';
import { Transaction } from '../../src/store/transaction.js';
import { directDraftRecipients, draftText, draftsSynchronized } from '../../src/domain/drafts.js';
import { checkNameForFragment, isBuiltInView, strippedNonBlank } from '../../src/domain/navigation-views.js';
import { snippetContent, snippetTitle } from '../../src/domain/saved-snippets.js';
import { checkDeviceToken, checkHuman, isBase64 } from '../../src/domain/push-devices.js';
import type { UserRecord } from '../../src/domain/users.js';
import { registryOnDisk } from '../helpers/actor-registry.js';

const kind = recordsKind<{ name: string }>('things');

test('personal records: kept in the order first stored, persisted with the change, undone with a rollback', async (t) => {
  const onDisk = registryOnDisk(t, [kind]);
  const open = async () => {
    const { db, registry } = await onDisk();
    return { db, registry, book: new PersonalRecords(registry, kind) };
  };
  const { db, registry, book } = await open();
  const tx = new Transaction();
  book.put(7, [['narrow/b', { name: 'b' }], [10, { name: 'ten' }], [2, { name: 'two' }]], tx);
  book.put(7, [[10, { name: 'TEN' }]], tx);
  book.put(8, [['x', { name: 'other user' }]], tx);
  t.same(book.list(7).map((r) => r.name), ['b', 'TEN', 'two'], 'first-stored order, integer-like keys included; a replacement keeps its place');
  t.same(book.get(7, '10'), { name: 'TEN' }, 'numbers and strings name the same key');
  t.equal(book.get(8, 10), undefined, "one user's records are not another's");
  await db.commit(tx.seal());

  const refused = new Transaction();
  book.drop(7, ['narrow/b'], refused);
  book.put(7, [['new', { name: 'new' }]], refused);
  t.same(book.list(7).map((r) => r.name), ['TEN', 'two', 'new']);
  refused.rollback();
  t.same(book.list(7).map((r) => r.name), ['b', 'TEN', 'two'], 'a rolled-back write leaves the records as they were');
  registry.stopAll();
  await db.close();

  const again = await open();
  t.same(again.book.list(7).map((r) => r.name), ['b', 'TEN', 'two'], 'restored in order');
  t.same(again.book.userIds().sort(), [7, 8]);
  await again.db.close();
});

test('drafts: recipients and text', async (t) => {
  t.same(directDraftRecipients([5], 4), [5], 'one to one');
  t.same(directDraftRecipients([5, 4], 4), [5], 'one to one, oneself named');
  t.same(directDraftRecipients([4], 4), [4], 'to oneself');
  t.same(directDraftRecipients([6, 2, 4, 6], 4), [2, 6], 'a group: the others, once each, in id order');
  const base = { type: 'stream' as const, to: [1], topic: 'topic', content: 'text' };
  t.same(draftText({ ...base, timestamp: 12.9 }, 'draft', 100), { topic: 'topic', content: 'text', timestamp: 12 });
  t.same(draftText(base, 'draft', 100).timestamp, 100, 'now when absent');
  t.same(draftText({ ...base, type: 'private', topic: 'x' }, 'draft', 100).topic, '', 'direct drafts have no topic');
  t.throws(() => draftText({ ...base, content: ' \n' }, 'drafts[2]', 0), { message: 'drafts[2]["content"] cannot be blank' });
  t.throws(() => draftText({ ...base, to: [] }, 'draft', 0), { message: 'Must specify exactly 1 channel ID for channel messages' });
  t.throws(() => draftText({ ...base, timestamp: -1 }, 'draft', 0), { message: 'Timestamp must not be negative.' });
  const user = (settings: Record<string, unknown>) => ({ settings }) as unknown as UserRecord;
  t.ok(draftsSynchronized(user({})), 'on by default');
  t.notOk(draftsSynchronized(user({ enable_drafts_synchronization: false })));
});

test('navigation views and saved snippets: names and lengths', async (t) => {
  t.ok(isBuiltInView('narrow/is/starred'));
  t.notOk(isBuiltInView('narrow/is/alerted'));
  t.doesNotThrow(() => checkNameForFragment('inbox', undefined));
  t.throws(() => checkNameForFragment('inbox', 'Home'), { message: 'Built-in views cannot have a custom name.' });
  t.throws(() => checkNameForFragment('narrow/x', undefined), { message: 'Custom views must have a valid name.' });
  t.equal(strippedNonBlank('  a b ', 'name'), 'a b');
  t.throws(() => strippedNonBlank(' \t', 'fragment'), { message: 'fragment cannot be blank' });
  t.equal(snippetTitle(` ${'t'.repeat(60)} `), 't'.repeat(60), 'measured after stripping');
  t.throws(() => snippetTitle('t'.repeat(61)), { message: 'title is too long (limit: 60 characters)' });
  t.throws(() => snippetContent('   '), { message: 'content cannot be blank' });
});

test('push devices: base64 and tokens', async (t) => {
  for (const good of ['YQ==', 'YWI=', 'YWJj', 'MTaUDJDMWypQ1WufZ1NRTHSSvgYtXh1qVNSjN3aBiEFt']) t.ok(isBase64(good), good);
  for (const bad of ['', 'YQ', 'Y===', 'YW-j', 'YW_j', 'YWJj\n', 'YW=j']) t.notOk(isBase64(bad), JSON.stringify(bad));
  t.doesNotThrow(() => checkDeviceToken('c0ffee', 'apns'));
  t.doesNotThrow(() => checkDeviceToken('c0 ff ee', 'apns'), 'whitespace between bytes, as bytes.fromhex');
  t.throws(() => checkDeviceToken('c0ffe', 'apns'), { message: 'Invalid APNS token' });
  t.doesNotThrow(() => checkDeviceToken('anything at all', 'fcm'));
  t.throws(() => checkDeviceToken('', 'fcm'), { message: 'Empty or invalid length token' });
  t.throws(() => checkDeviceToken('a'.repeat(4097), 'fcm'), { message: 'Empty or invalid length token' });
  t.throws(() => checkHuman({ isBot: true }), { message: 'This endpoint does not accept bot requests.' });
});
