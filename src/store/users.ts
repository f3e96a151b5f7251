/** Every user and bot of an organization, in memory, indexed by id and email; saved per record. */
import type { UserRecord } from '../domain/users.js';
import { apiEmail } from '../domain/users.js';
import type { RealmKeys } from './keys.js';
import type { Transaction } from './transaction.js';

export class UserDirectory {
  private readonly byId = new Map<number, UserRecord>();
  private readonly idByEmail = new Map<string, number>();
  /** Bumped on every change, so callers can cache what they derive from users. */
  version = 0;

  constructor(
    private readonly keys: RealmKeys,
    private readonly host: string,
  ) {}

  get(id: number): UserRecord | undefined {
    return this.byId.get(id);
  }

  /** By real or API email, case-insensitively. */
  byEmail(email: string): UserRecord | undefined {
    const id = this.idByEmail.get(email.toLowerCase());
    return id === undefined ? undefined : this.byId.get(id);
  }

  all(): IterableIterator<UserRecord> {
    return this.byId.values();
  }

  get size(): number {
    return this.byId.size;
  }

  /** Adds a record read from the store at start-up. */
  load(user: UserRecord): void {
    this.index(user);
  }

  /** Replaces (or adds) a user; the record is written in `tx`. Records are replaced, never mutated. */
  save(user: UserRecord, tx: Transaction): void {
    const previous = this.byId.get(user.id);
    tx.onRollback(() => {
      this.unindex(user);
      if (previous) this.index(previous);
    });
    if (previous) this.unindex(previous);
    this.index(user);
    tx.put(this.keys.user(user.id), user);
  }

  private unindex(user: UserRecord): void {
    this.byId.delete(user.id);
    this.idByEmail.delete(user.deliveryEmail.toLowerCase());
    this.idByEmail.delete(apiEmail(user, this.host).toLowerCase());
    this.version++;
  }

  private index(user: UserRecord): void {
    this.byId.set(user.id, user);
    this.idByEmail.set(user.deliveryEmail.toLowerCase(), user.id);
    this.idByEmail.set(apiEmail(user, this.host).toLowerCase(), user.id);
    this.version++;
  }
}
