/**
 * Users' per-message rows (the flags bitfields of `um` keys) held in memory: read whole in the
 * background the first time a user's row is asked for, and kept current as commits become
 * durable, so that a page of 50 messages costs 50 map lookups instead of 50 LevelDB reads
 * (rows are sparse: most messages have none, and a miss was a read of every level's filter).
 *
 * A user's book shows what is durable, like the store under the read-your-writes overlay: the
 * caller asks the overlay first (a batch not yet on disk). Changes are applied after their batch
 * is durable (the transaction's after-commit), never on rollback; changes made durable while a
 * book is read are noted and applied after the read, in order, so that none is lost whether the
 * read's snapshot holds it or not (setting a row to the value it has changes nothing).
 * Bounded by the number of rows held; least recently used books go, and a user with more rows
 * than a book may hold is read from the store as before.
 */

import { Flag } from '../domain/messages.js';
import type { Transaction } from './transaction.js';

interface Book {
  /** Row by message id; undefined while the book is being read. */
  rows: Map<number, number> | undefined;
  /** The ids of rows without `read` (the user's unread index), kept beside the rows. */
  unread: Set<number>;
  /** Changes made durable while the book was read: [message id, flags or undefined (dropped)]. */
  pending: [number, number | undefined][];
}

export class RowBook {
  /** By user, least recently used first. */
  private readonly books = new Map<number, Book>();
  /** Users with more rows than a book holds: never read whole. */
  private readonly tooMany = new Set<number>();
  private held = 0;
  private reading = false;
  /**
   * Rows a write has changed and the book does not show yet, from the change until its
   * after-commit (or rollback), by `user:message`: these are read from the store (its overlay,
   * then disk), so a change function never sees a row older than the store holds.
   */
  private readonly inFlight = new Map<string, number>();
  /** Books read into memory and rows answered from them (tests and benches see them at work). */
  readonly counts = { loaded: 0, answered: 0 };

  constructor(
    /** Every row of a user, as on disk. */
    private readonly read: (userId: number) => AsyncIterable<[number, number]>,
    private readonly maxRows = 500_000,
  ) {}

  /** The user's durable rows if their book is in memory (else undefined, and its read is started if none is under way). */
  rowsOf(userId: number): ReadonlyMap<number, number> | undefined {
    const book = this.books.get(userId);
    if (book?.rows === undefined) {
      if (book === undefined && !this.reading && !this.tooMany.has(userId)) void this.load(userId);
      return undefined;
    }
    this.books.delete(userId);
    this.books.set(userId, book);
    this.counts.answered++;
    return book.rows;
  }

  /** A write changes a row: the book shows it once the batch is durable; until then the row is read from the store. */
  track(userId: number, messageId: number, flags: number | undefined, tx: Transaction): void {
    const held = this.hold(userId, messageId);
    tx.onRollback(() => this.release(held));
    tx.afterCommit.push(() => {
      this.changed(userId, messageId, flags);
      this.release(held);
    });
  }

  private hold(userId: number, messageId: number): string {
    const key = `${userId}:${messageId}`;
    this.inFlight.set(key, (this.inFlight.get(key) ?? 0) + 1);
    return key;
  }

  private release(key: string): void {
    const count = (this.inFlight.get(key) ?? 1) - 1;
    if (count > 0) this.inFlight.set(key, count);
    else this.inFlight.delete(key);
  }

  /** Is a write's change of this row not yet in the book? */
  isHeld(userId: number, messageId: number): boolean {
    return this.inFlight.size > 0 && this.inFlight.has(`${userId}:${messageId}`);
  }

  /** After a commit: the user's row of the message is now `flags` (undefined: dropped). */
  changed(userId: number, messageId: number, flags: number | undefined): void {
    const book = this.books.get(userId);
    if (book === undefined) return;
    if (book.rows === undefined) book.pending.push([messageId, flags]);
    else this.apply(book.rows, book.unread, messageId, flags, true);
  }

  /**
   * The user's unread rows in id order (newest first when `reverse`), from memory when their book is there and holds at most
   * `atMost` of them (a walk of the unread index then needs no store read); else undefined.
   */
  unreadIds(userId: number, atMost: number, reverse: boolean): number[] | undefined {
    const book = this.books.get(userId);
    if (book?.rows === undefined || book.unread.size > atMost) return undefined;
    return [...book.unread].sort(reverse ? (a, b) => b - a : (a, b) => a - b);
  }

  private apply(rows: Map<number, number>, unread: Set<number>, messageId: number, flags: number | undefined, counted: boolean): void {
    const had = rows.has(messageId);
    if (flags === undefined) rows.delete(messageId);
    else rows.set(messageId, flags);
    if (flags !== undefined && (flags & Flag.read) === 0) unread.add(messageId);
    else unread.delete(messageId);
    if (counted) this.held += (flags === undefined ? 0 : 1) - (had ? 1 : 0);
    if (counted && this.held > this.maxRows) this.evict();
  }

  private async load(userId: number): Promise<void> {
    const book: Book = { rows: undefined, unread: new Set(), pending: [] };
    // Noted before the read begins, so that every change made durable from now on is seen.
    this.books.set(userId, book);
    this.reading = true;
    const rows = new Map<number, number>();
    try {
      for await (const [messageId, flags] of this.read(userId)) {
        rows.set(messageId, flags);
        if ((flags & Flag.read) === 0) book.unread.add(messageId);
        if (rows.size > this.maxRows / 8) {
          this.tooMany.add(userId);
          throw new Error('too many rows to hold');
        }
      }
    } catch {
      // Too many, or the store closing: this user's rows are read from the store, as before.
      if (this.books.get(userId) === book) this.books.delete(userId);
      return;
    } finally {
      this.reading = false;
    }
    if (this.books.get(userId) !== book) return;
    for (const [messageId, flags] of book.pending) this.apply(rows, book.unread, messageId, flags, false);
    book.pending = [];
    book.rows = rows;
    this.held += rows.size;
    this.counts.loaded++;
    this.evict();
  }

  private evict(): void {
    for (const [userId, book] of this.books) {
      if (this.held <= this.maxRows) return;
      if (book.rows === undefined) continue;
      this.books.delete(userId);
      this.held -= book.rows.size;
    }
  }
}
