/**
 * The server's index of organizations with timed work waiting (scheduled messages and reminders,
 * notifications not yet delivered): organizations load at their first request, so these are
 * loaded after the server listens, or their work would wait for a visitor. A mark is written in
 * the batch that creates the work and cleared when an organization stops with none left.
 */
import type { Database } from './database.js';
import { prefixRange, serverKeys } from './keys.js';
import type { Transaction } from './transaction.js';

export const WakeIndex = {
  /** Marks the organization as having timed work (in `tx`, with the work). */
  mark(realmId: number, tx: Transaction): void {
    tx.put(serverKeys.wake(realmId), { id: realmId });
  },

  clear(realmId: number, tx: Transaction): void {
    tx.del(serverKeys.wake(realmId));
  },

  /** The marked organizations' ids (one range scan: only those with work are listed). */
  async list(db: Database): Promise<number[]> {
    const ids: number[] = [];
    for await (const [, entry] of db.scan<{ id: number }>(prefixRange(serverKeys.wakePrefix))) ids.push(entry.id);
    return ids;
  },
};
