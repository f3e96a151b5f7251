/** Unit tests of the cached shape of message records (store/record-shape.ts): same record, fewer objects, lists shared only when empty. */
import { test } from 'tap';
import type { MessageRecord } from '../../src/domain/messages.js';
import { compactRecord } from '../../src/store/record-shape.js';
import { decode, encode } from '../../src/store/codec.js';
import { execFileSync } from 'node:child_process';

const channelMessage = (over: Partial<MessageRecord> = {}): MessageRecord => ({
  id: 7, senderId: 3, type: 'stream', channelId: 2, topic: 'deploys', recipientId: 11,
  content: 'hello', renderedContent: '<p>hello</p>', timestamp: 1_700_000_000, client: 'website',
  userIds: [], reactions: [], editHistory: [], ...over,
});

const directMessage = (over: Partial<MessageRecord> = {}): MessageRecord => ({
  id: 8, senderId: 3, type: 'private', recipientId: 40, dmUserIds: [3, 4],
  content: 'hi', renderedContent: '<p>hi</p>', timestamp: 1_700_000_001, client: 'ZulipMobile',
  userIds: [3, 4], reactions: [{ emojiName: 'smile', emojiCode: '1f604', reactionType: 'unicode_emoji', userId: 4 }], editHistory: [], ...over,
});

test('a compacted record is the same record, as decoded from the store', async (t) => {
  for (const record of [channelMessage(), directMessage(), channelMessage({ explicit: true, userIds: [5, 6] }), channelMessage({ submessages: [] })]) {
    // As the store hands it out: decoded by msgpackr.
    const stored = decode<MessageRecord>(encode(record));
    const compact = compactRecord(stored);
    t.same(compact, record, `${record.type} ${Object.keys(record).join(',')}`);
    t.same(Object.keys(compact).sort(), Object.keys(record).sort(), 'no key added, none lost');
    t.same(decode(encode(compact)), record, 'and it is stored again unchanged');
  }
});

test('fields this version does not know are kept', async (t) => {
  const stored = { ...channelMessage(), laterField: { a: 1 } } as MessageRecord & { laterField: unknown };
  t.same((compactRecord(stored) as typeof stored).laterField, { a: 1 });
});

test('empty lists are one shared frozen list; lists with entries are the record\'s own; client names are shared', async (t) => {
  const a = compactRecord(decode<MessageRecord>(encode(channelMessage())));
  const b = compactRecord(decode<MessageRecord>(encode(channelMessage({ id: 9 }))));
  t.equal(a.reactions, b.editHistory, 'one empty list for all');
  t.ok(Object.isFrozen(a.userIds), 'frozen');
  t.throws(() => (a.reactions as unknown[]).push(1), TypeError, 'a change in place fails loudly instead of reaching every record');
  const withRows = channelMessage({ userIds: [5] });
  t.equal(compactRecord(withRows).userIds, withRows.userIds, 'a list with entries is kept as it is');
  const client = (r: MessageRecord) => compactRecord(decode<MessageRecord>(encode(r))).client;
  t.equal(client(channelMessage()), 'website');
  t.equal(compactRecord(directMessage()).client, client(directMessage({ id: 10 })), 'equal client names');
});

test('compacted records of a kind share the shape of a literal with their fields (checked with V8\'s intrinsics)', async (t) => {
  const url = (path: string) => new URL(path, import.meta.url).href;
  const script = `
    import { compactRecord } from '${url('../../src/store/record-shape.js')}';
    import { decode, encode } from '${url('../../src/store/codec.js')}';
    const stored = (id) => decode(encode({ id, senderId: 3, type: 'stream', channelId: 2, topic: 't', recipientId: 11, content: 'a', renderedContent: 'b', timestamp: 1, client: 'website', userIds: [], reactions: [], editHistory: [] }));
    const literal = { id: 0, senderId: 0, type: 'stream', channelId: 0, topic: '', recipientId: 0, content: '', renderedContent: '', timestamp: 0, client: '', userIds: [], reactions: [], editHistory: [] };
    console.log(JSON.stringify([%HaveSameMap(stored(1), literal), %HaveSameMap(compactRecord(stored(1)), literal), %HaveSameMap(compactRecord(stored(2)), literal)]));`;
  const printed = execFileSync(process.execPath, ['--allow-natives-syntax', '--input-type=module', '-e', script], { encoding: 'utf8' }).trim();
  t.same(JSON.parse(printed), [false, true, true], 'as decoded, a record is shaped otherwise; compacted, as the literal');
});
