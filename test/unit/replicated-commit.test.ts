/**
 * The group commit in cluster mode against a real LevelDB and a stand-in for the streams: each
 * organization's batch is appended before the write; a refused organization's batches are rolled
 * back and refused while the others are written; a failed LevelDB write tells the replicator.
 */
import { test } from 'tap';
import { rmSync } from 'node:fs';
import { Database } from '../../src/store/database.js';
import { appliedKey, type ReplicatedBatch, type Replicator } from '../../src/store/replicated-log.js';
import { tempDataDir } from '../helpers/server.js';

class Streams implements Replicator {
  readonly appended: [number, string[]][] = [];
  refuse = new Set<number>();
  failedWrites = 0;
  private sequence = 0;

  admit(realm: number | undefined): Error | undefined {
    return realm === 3 ? new Error('not served here') : undefined;
  }

  async append(batches: ReadonlyMap<number, ReplicatedBatch>): Promise<Map<number, number | Error>> {
    const outcomes = new Map<number, number | Error>();
    for (const [realm, batch] of batches) {
      if (this.refuse.has(realm)) {
        outcomes.set(realm, new Error(`fenced ${realm}`));
        continue;
      }
      this.appended.push([realm, batch.ops.map((op) => op[1])]);
      outcomes.set(realm, ++this.sequence);
    }
    return outcomes;
  }

  writeFailed(): void {
    this.failedWrites++;
  }
}

test('cluster mode: appended before the write, refused organizations rolled back, others written', async (t) => {
  const dir = tempDataDir();
  const db = await Database.open(dir, { sync: false });
  t.teardown(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const streams = new Streams();
  db.replicateWith(streams, 'n1');

  await t.rejects(db.commit([{ type: 'put', key: '3!realm', value: 1 }]), /not served here/, 'an organization served elsewhere is refused at commit');
  t.equal(db.get('3!realm'), undefined);

  streams.refuse.add(2);
  const rolledBack: number[] = [];
  const one = db.commit([{ type: 'put', key: '1!user!a', value: 'a' }, { type: 'put', key: 'server!counter!message', value: 7 }], () => rolledBack.push(1));
  const two = db.commit([{ type: 'put', key: '2!user!b', value: 'b' }], () => rolledBack.push(2));
  t.equal(db.get('2!user!b'), 'b', 'readable before the turn is written');
  await t.resolves(one);
  await t.rejects(two, /fenced 2/);
  t.same(rolledBack, [2], "only the refused organization's batch is rolled back");
  t.same(streams.appended, [[1, ['1!user!a', 'server!counter!message']]], 'the shared counter went with the organization that was appended');
  t.equal(db.get('1!user!a'), 'a');
  t.equal(db.get(appliedKey(1)), 1, 'the stream sequence is written with the batch');
  t.equal(db.get('2!user!b'), undefined, 'the refused write is neither on disk nor in the overlay');

  streams.refuse.clear();
  let faulted = false;
  db.faults.beforeWrite = () => {
    if (!faulted) {
      faulted = true;
      throw Object.assign(new Error('disk full'), { code: 'ENOSPC' });
    }
  };
  await t.rejects(db.commit([{ type: 'put', key: '1!user!c', value: 'c' }]));
  t.equal(streams.failedWrites, 1, 'a failed write after the append is told to the replicator');
  // The store reopens itself (store/recovery.ts) before it is closed.
  for (let waited = 0; !db.writable && waited < 200; waited++) await new Promise((resolve) => setTimeout(resolve, 50));
  t.ok(db.writable, 'the store recovered');
});
