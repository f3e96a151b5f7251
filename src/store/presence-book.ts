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
    this.byUser.set(userId, next);
    tx.onRollback(() => (previous ? this.byUser.set(userId, previous) : this.byUser.delete(userId)));
    const lastActive = previous?.lastActive ?? null;
    return !previous || (active && (lastActive === null || now - lastActive > ONLINE_AGAIN_SECONDS));
  }

  get newestUpdateId(): number {
    return this.byUser.size ? this.lastUpdateId : -1;
  }

  entries(): IterableIterator<[number, Presence]> {
    return this.byUser.entries();
  }
}
