/** The presence book's changes since an update id (read from its log) are exactly the presences updated after it, through reports, rollbacks and compactions. */
import fc from 'fast-check';
import { test } from 'tap';
import { PresenceBook, type Presence } from '../../src/store/presence-book.js';
import { Transaction } from '../../src/store/transaction.js';

/** What `forEachSince` visits, in its order. */
function changedSince(book: PresenceBook, since: number): Array<[number, Presence]> {
  const visited: Array<[number, Presence]> = [];
  book.forEachSince(since, (userId, presence) => visited.push([userId, presence]));
  return visited;
}

const step = fc.record({ userId: fc.integer({ min: 1, max: 12 }), active: fc.boolean(), rollBack: fc.boolean() });

test('forEachSince visits exactly a filter of every presence, in any history', async (t) => {
  fc.assert(
    fc.property(fc.array(step, { maxLength: 300 }), fc.nat({ max: 320 }), (steps, since) => {
      const book = new PresenceBook();
      let now = 1_000;
      for (const { userId, active, rollBack } of steps) {
        const tx = new Transaction();
        book.report(userId, active, (now += 5), tx);
        if (rollBack) tx.rollback();
      }
      const expected = [...book.entries()].filter(([, p]) => p.updateId > since).map(([id]) => id).sort((a, b) => a - b);
      const everyone = changedSince(book, -1).map(([id]) => id).sort((a, b) => a - b);
      if (JSON.stringify(everyone) !== JSON.stringify([...book.entries()].map(([id]) => id).sort((a, b) => a - b))) return false;
      const changed = changedSince(book, since);
      const ids = changed.map(([id]) => id);
      if (new Set(ids).size !== ids.length) return false;
      if (changed.some(([id, p]) => book.get(id) !== p)) return false;
      const updateIds = changed.map(([, p]) => p.updateId);
      if (updateIds.some((id, i) => i > 0 && id >= updateIds[i - 1]!)) return false; // newest first
      return JSON.stringify([...ids].sort((a, b) => a - b)) === JSON.stringify(expected);
    }),
    { numRuns: 300 },
  );
  t.pass('300 histories');
});

test('a report rolled back is not reported as changed; the one before it is still there', async (t) => {
  const book = new PresenceBook();
  const first = new Transaction();
  book.report(7, true, 100, first);
  const mark = book.newestUpdateId;
  const second = new Transaction();
  book.report(7, false, 200, second);
  second.rollback();
  t.equal(book.get(7)?.lastConnected, 100, 'the earlier report is restored');
  t.same(changedSince(book, mark).map(([id]) => id), [7], 'under a new update id: a client that saw the rolled-back one learns the restored state');
});
