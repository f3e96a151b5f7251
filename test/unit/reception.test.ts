/** Unit tests of reception intervals (domain/reception.ts) and the store's spans and unions of ranges. */
import { test } from 'tap';
import { rmSync } from 'node:fs';
import { closeAt, holds, isOpen, openAt, spans, NO_INTERVALS } from '../../src/domain/reception.js';
import { Database } from '../../src/store/database.js';
import { MessageStore } from '../../src/store/messages.js';
import { Transaction } from '../../src/store/transaction.js';
import type { MessageRecord } from '../../src/domain/messages.js';
import { tempDataDir } from '../helpers/server.js';

test('reception intervals: open, close, hold', async (t) => {
  let received = openAt(NO_INTERVALS, 10);
  t.same(received, [10]);
  t.ok(isOpen(received));
  t.same(openAt(received, 12), [10], 'opening an open interval changes nothing');
  received = closeAt(received, 20);
  t.same(received, [10, 20]);
  t.notOk(isOpen(received));
  t.same(closeAt(received, 25), [10, 20], 'closing a closed one changes nothing');
  t.same(openAt(received, 20), [10], 'reopened where it closed: nothing was sent between, one interval');
  received = openAt(received, 30);
  t.same(received, [10, 20, 30]);
  t.same(closeAt(openAt([], 5), 5), [], 'an interval closed where it opened holds nothing and vanishes');
  for (const [id, expected] of [[9, false], [10, true], [19, true], [20, false], [29, false], [30, true], [10 ** 9, true]] as const) {
    t.equal(holds(received, id), expected, `${id}`);
  }
  t.equal(holds([10, 20], 25), false, 'after a closed interval');
  t.equal(holds([], 1), false);
  t.same(spans(received), [[10, 20], [30, Infinity]]);
  t.same(spans(received, 15), [[16, 20], [30, Infinity]], 'clipped above an id (a read mark)');
  t.same(spans(received, 25), [[30, Infinity]]);
  t.same(spans([10, 20], 40), []);
});

test('message store: a channel span walks only its ids; a union merges ranges in order, each id once', async (t) => {
  const dir = tempDataDir();
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const db = await Database.open(dir, { sync: false });
  const store = new MessageStore(db, 1);
  const tx = new Transaction();
  const record = (id: number, channelId: number): MessageRecord => ({
    id, senderId: 1, type: 'stream', channelId, topic: 't', recipientId: channelId, content: '', renderedContent: '',
    timestamp: 0, client: 'test', userIds: [], reactions: [], editHistory: [],
  });
  for (let id = 1; id <= 30; id++) {
    const message = record(id, id % 3 === 0 ? 2 : 1);
    store.save(message, tx);
    store.index(message, 't', tx);
  }
  store.setFlags(7, 5, undefined, 1, tx);
  store.setFlags(7, 9, undefined, 1, tx);
  await db.commit(tx.seal());
  const walk = async (range: Parameters<MessageStore['ids']>[0], options: Parameters<MessageStore['ids']>[1]) => {
    const ids: number[] = [];
    for await (const id of store.ids(range, options)) ids.push(id);
    return ids;
  };
  t.same(await walk({ of: 'channel-span', channelId: 1, from: 10, to: 15 }, { reverse: false }), [10, 11, 13, 14]);
  t.same(await walk({ of: 'channel-span', channelId: 1, from: 10, to: 15 }, { reverse: true }), [14, 13, 11, 10]);
  t.same(await walk({ of: 'channel-span', channelId: 1, from: 10, to: 15 }, { reverse: true, from: 13 }), [11, 10], 'below an anchor');
  t.same(await walk({ of: 'channel-span', channelId: 1, from: 10, to: 15 }, { reverse: false, from: 13, inclusive: true }), [13, 14]);
  t.same(await walk({ of: 'channel-span', channelId: 1, from: 28, to: Infinity }, { reverse: false }), [28, 29]);
  const union = { of: 'union', ranges: [{ of: 'channel-span', channelId: 2, from: 1, to: 10 }, { of: 'rows', userId: 7 }, { of: 'channel-span', channelId: 1, from: 25, to: Infinity }] } as const;
  t.same(await walk(union, { reverse: false }), [3, 5, 6, 9, 25, 26, 28, 29], 'merged in order, 9 once (a row and the span)');
  t.same(await walk(union, { reverse: true }), [29, 28, 26, 25, 9, 6, 5, 3]);
  t.same(await walk(union, { reverse: true, from: 9 }), [6, 5, 3]);
  t.equal(await store.newestInChannel(1), 29);
  t.equal(await store.newestInChannel(2), 30);
  t.equal(await store.newestInChannel(3), -1, 'no messages');
  await db.close();
});
