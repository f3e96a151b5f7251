/**
 * Unit tests of the message store's record cache (store/record-cache.ts): bounded, the oldest
 * going first; a record read at least once per half a cache of new records is never the one to
 * go; `peek` leaves the order as it is; a replaced record takes its id's place.
 */
import { test } from 'tap';
import type { MessageRecord } from '../../src/domain/messages.js';
import { RecordCache } from '../../src/store/record-cache.js';

const record = (id: number, content = `m${id}`) => ({ id, content }) as unknown as MessageRecord;

test('the record cache', async (t) => {
  const cache = new RecordCache(4);
  for (let id = 1; id <= 4; id++) cache.set(record(id));
  cache.set(record(5));
  t.equal(cache.size, 4, 'bounded');
  t.equal(cache.get(1), undefined, 'the oldest went first');

  // Record 2 is read after every new record: it never becomes the oldest.
  const hot = cache.get(2)!;
  for (let id = 6; id <= 20; id++) {
    cache.set(record(id));
    t.equal(cache.get(2), hot, `still held after record ${id}`);
  }
  t.equal(cache.get(3), undefined, 'records not read went');

  // A peek keeps the order: the record peeked at stays the oldest.
  const fresh = new RecordCache(3);
  for (let id = 1; id <= 3; id++) fresh.set(record(id));
  t.ok(fresh.peek(1));
  fresh.set(record(4));
  t.equal(fresh.peek(1), undefined, 'a peeked record is not moved to the back');
  t.ok(fresh.get(2), 'an old record read with get…');
  fresh.set(record(5));
  t.ok(fresh.peek(2), '…takes its place at the back');
  t.equal(fresh.peek(3), undefined);

  const replaced = record(5, 'edited');
  fresh.set(replaced);
  t.equal(fresh.get(5), replaced, 'a replaced record is the one held');
  t.equal(fresh.size, 3);
  fresh.delete(5);
  t.equal(fresh.get(5), undefined, 'deleted');
});

test('a record read from the store is kept at its second read while its first is still remembered', async (t) => {
  const cache = new RecordCache(3);
  const first = record(1);
  cache.admit(first);
  t.equal(cache.peek(1), undefined, 'read once: not kept');
  t.equal(cache.size, 0);
  const second = record(1);
  cache.admit(second);
  t.equal(cache.peek(1), second, 'read again: kept (the record of the second read)');
  cache.admit(record(1));
  t.equal(cache.peek(1), second, 'a kept record is not replaced by admitting another read of it');

  // Only the last `maxRecords` ids read once are remembered.
  for (let id = 10; id <= 13; id++) cache.admit(record(id));
  cache.admit(record(10));
  t.equal(cache.peek(10), undefined, 'id 10 was forgotten after three more reads: its second read counts as a first');
  cache.admit(record(13));
  t.ok(cache.peek(13), 'id 13 was still remembered: kept');

  // What was written is kept at once.
  const written = new RecordCache(3);
  written.set(record(7));
  t.ok(written.peek(7), 'set keeps a record without a first read');
});
