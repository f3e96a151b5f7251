/**
 * Everyone's presence, in memory only: presence is ephemeral (Zulip forgets it after two
 * weeks), so it is not written to the store, and a restart starts with nobody online.
 */
import type { Transaction } from './transaction.js';

/** Zulip counts someone as newly online after this long without an active report. */
export const ONLINE_AGAIN_SECONDS = 70;

export interface Presence {
  /** Null until the first active report (Zulip counts from the date joined then). */
  lastActive: number | null;
  lastConnected: number;
  updateId: number;
}

export class PresenceBook {
  private readonly byUser = new Map<number, Presence>();
  private lastUpdateId = 0;
  /**
   * Who reported, in update order (an entry is stale once its user reported again): a client
   * asking what changed since its last report (`last_update_id`, every 60 s) reads the tail of
   * this log, not every user's presence. Compacted when it holds twice as many entries as users.
   */
  private log: { userId: number; updateId: number }[] = [];

  get(userId: number): Presence | undefined {
    return this.byUser.get(userId);
  }

  /**
   * Records a report as part of `tx` (undone if it rolls back); true when it deserves an
   * event: the user's first report ever, or coming online.
   */
  report(userId: number, active: boolean, now: number, tx: Transaction): boolean {
    const previous = this.byUser.get(userId);
    const next: Presence = {
      lastActive: active ? now : (previous?.lastActive ?? null),
      lastConnected: now,
      updateId: ++this.lastUpdateId,
    };
    this.record(userId, next);
    tx.onRollback(() => {
      // Restored under a new update id, so that the log stays in update order.
      if (previous) this.record(userId, { ...previous, updateId: ++this.lastUpdateId });
      else this.byUser.delete(userId);
    });
    const lastActive = previous?.lastActive ?? null;
    return !previous || (active && (lastActive === null || now - lastActive > ONLINE_AGAIN_SECONDS));
  }

  get newestUpdateId(): number {
    return this.byUser.size ? this.lastUpdateId : -1;
  }

  /** Every presence (what `forEachSince(-1, …)` visits; the unit tests' reference). */
  entries(): IterableIterator<[number, Presence]> {
    return this.byUser.entries();
  }

  /**
   * Visits the presences updated after `updateId` (newest first; every presence when it is
   * negative). A visitor, not a generator: a report every 60 s reads everyone who reported in the
   * last minute, and two objects per entry and yield were most of what the answer allocated.
   */
  forEachSince(updateId: number, visit: (userId: number, presence: Presence) => void): void {
    if (updateId < 0) {
      this.byUser.forEach((presence, userId) => visit(userId, presence));
      return;
    }
    const log = this.log;
    for (let i = log.length - 1; i >= 0 && log[i]!.updateId > updateId; i--) {
      const entry = log[i]!;
      const presence = this.byUser.get(entry.userId);
      if (presence?.updateId === entry.updateId) visit(entry.userId, presence);
    }
  }

  private record(userId: number, presence: Presence): void {
    this.byUser.set(userId, presence);
    this.log.push({ userId, updateId: presence.updateId });
    if (this.log.length > 2 * this.byUser.size + 64) {
      this.log = [...this.byUser].map(([id, p]) => ({ userId: id, updateId: p.updateId })).sort((a, b) => a.updateId - b.updateId);
    }
  }
}
