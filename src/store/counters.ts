/** Persisted counters that hand out integer ids; each new value is written in the batch that uses it. */
import type { Database } from './database.js';
import type { Transaction } from './transaction.js';

export class Counters {
  private readonly values = new Map<string, number>();

  constructor(private readonly db: Database) {}

  /** The last id handed out under `key` (0 when none). */
  current(key: string): number {
    let value = this.values.get(key);
    if (value === undefined) {
      value = this.db.get<number>(key) ?? 0;
      this.values.set(key, value);
    }
    return value;
  }

  next(key: string, tx: Transaction): number {
    const value = this.current(key) + 1;
    this.values.set(key, value);
    // Written late so that a transaction sealed after a later one cannot move the counter back.
    tx.putLate(key, () => this.values.get(key));
    return value;
  }
}
