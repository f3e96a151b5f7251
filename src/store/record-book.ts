/**
 * One in-memory record book: every record stored under a key prefix, read once at start and
 * looked up by id and by the indexes a book declares. Each change goes to the store in the
 * caller's transaction and is undone in memory, indexes included, if that transaction rolls
 * back. Users, channels, groups, invitations, attachments, custom emoji and scheduled messages
 * are books; they add only the lookups of their own.
 */
import type { Database } from './database.js';
import { prefixRange } from './keys.js';
import type { Transaction } from './transaction.js';

/** What a book keeps beside its records, told of every record that comes and goes. */
export interface BookIndex<R> {
  add(record: R): void;
  remove(record: R): void;
}

/** Where a book's records live in the store and what names a record. */
export interface BookLayout<Id, R> {
  /** The key prefix of every record of the book. */
  prefix: string;
  /** A record's key. */
  key(record: R): string;
  /** A record's id: its name in memory. */
  id(record: R): Id;
}

/** Records by a value unique among them (a name, an email address): value → record. */
export class UniqueIndex<R, V = string> implements BookIndex<R> {
  private readonly records = new Map<V, R>();

  /** `valuesOf` lists the values a record is found by (none: the record is not in this index). */
  constructor(private readonly valuesOf: (record: R) => readonly V[]) {}

  get(value: V): R | undefined {
    return this.records.get(value);
  }

  add(record: R): void {
    for (const value of this.valuesOf(record)) this.records.set(value, record);
  }

  remove(record: R): void {
    // Only if the value still names this record: another may have taken the value since.
    for (const value of this.valuesOf(record)) if (this.records.get(value) === record) this.records.delete(value);
  }
}

/** Records by a value many may share (an owner, a sender): value → records, in the order they came. */
export class MultiIndex<R, V = number> implements BookIndex<R> {
  private readonly records = new Map<V, Set<R>>();

  constructor(private readonly valuesOf: (record: R) => readonly V[]) {}

  get(value: V): R[] {
    return [...(this.records.get(value) ?? [])];
  }

  add(record: R): void {
    for (const value of this.valuesOf(record)) {
      let set = this.records.get(value);
      if (!set) this.records.set(value, (set = new Set()));
      set.add(record);
    }
  }

  remove(record: R): void {
    for (const value of this.valuesOf(record)) {
      const set = this.records.get(value);
      set?.delete(record);
      if (set?.size === 0) this.records.delete(value);
    }
  }
}

export class RecordBook<Id, R> {
  private readonly records = new Map<Id, R>();
  private readonly indexes: BookIndex<R>[] = [];
  /** Bumped on every change, so callers can cache what they derive from the records. */
  version = 0;

  constructor(private readonly layout: BookLayout<Id, R>) {}

  /** Keeps `index` up to date with the records (declared by a book before it loads). */
  protected indexBy<I extends BookIndex<R>>(index: I): I {
    this.indexes.push(index);
    return index;
  }

  /** Reads every record of the book from the store; called once before the server serves. */
  async load(db: Database): Promise<void> {
    for await (const [, record] of db.scan<R>(prefixRange(this.layout.prefix))) this.remember(record);
  }

  get(id: Id): R | undefined {
    return this.records.get(id);
  }

  /** Every record, in the order first met (store order at start, then creation order). */
  all(): IterableIterator<R> {
    return this.records.values();
  }

  get size(): number {
    return this.records.size;
  }

  /** Adds or replaces a record (records are replaced, never mutated); it is written in `tx`. */
  save(record: R, tx: Transaction): void {
    const id = this.layout.id(record);
    const before = this.records.get(id);
    tx.put(this.layout.key(record), record);
    this.remember(record);
    tx.onRollback(() => (before ? this.remember(before) : this.forget(id)));
  }

  /** Deletes a record, if there is one; the deletion is written in `tx`. */
  delete(id: Id, tx: Transaction): void {
    const before = this.records.get(id);
    if (before === undefined) return;
    tx.del(this.layout.key(before));
    this.forget(id);
    tx.onRollback(() => this.remember(before));
  }

  /** Adds or replaces a record in memory only: one read from the store, or a start-up mend written by its caller. */
  remember(record: R): void {
    const id = this.layout.id(record);
    const before = this.records.get(id);
    if (before !== undefined) for (const index of this.indexes) index.remove(before);
    this.records.set(id, record);
    for (const index of this.indexes) index.add(record);
    this.version++;
  }

  private forget(id: Id): void {
    const record = this.records.get(id);
    if (record === undefined) return;
    this.records.delete(id);
    for (const index of this.indexes) index.remove(record);
    this.version++;
  }
}
