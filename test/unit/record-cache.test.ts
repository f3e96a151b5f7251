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
