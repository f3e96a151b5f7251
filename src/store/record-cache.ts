/**
 * The message store's decoded records, most recently used kept (a Map, whose order is the
 * eviction order). A hit takes its place at the back again only when half the cache has been
 * read in since it last did: a page read again and again then costs a lookup, not two Map writes
 * (and the rehashing their holes bring), while a record used at least that often is never the
 * oldest when one must go.
 */
import type { MessageRecord } from '../domain/messages.js';

/** A cached record and the count of records put in when it last took its place at the back. */
class Slot {
  constructor(
    readonly record: MessageRecord,
    public placedAt: number,
  ) {}
}

export class RecordCache {
  /** Each record with its place in one entry: a page's read costs one lookup per record, not two. */
  private readonly records = new Map<number, Slot>();
  /** Records put in so far. */
  private added = 0;

  constructor(private readonly maxRecords: number) {}

  get size(): number {
    return this.records.size;
  }

  /** The cached record, its place kept (for reads of many records at once). */
  peek(id: number): MessageRecord | undefined {
    return this.records.get(id)?.record;
  }

  /** The cached record, its place refreshed when it has grown old. */
  get(id: number): MessageRecord | undefined {
    const slot = this.records.get(id);
    if (slot === undefined) return undefined;
    if (this.added - slot.placedAt > this.maxRecords / 2) this.place(slot.record);
    return slot.record;
  }

  /** Keeps a record (new or replacing its id's), the oldest going past the bound. */
  set(record: MessageRecord): void {
    this.added++;
    this.place(record);
    if (this.records.size > this.maxRecords) this.records.delete(this.records.keys().next().value!);
  }

  /** Every cached record by id, oldest first, places kept (for readers of the whole cache, such as the tests' state watch). */
  *entries(): IterableIterator<[number, MessageRecord]> {
    for (const [id, slot] of this.records) yield [id, slot.record];
  }

  delete(id: number): void {
    this.records.delete(id);
  }

  private place(record: MessageRecord): void {
    this.records.delete(record.id);
    this.records.set(record.id, new Slot(record, this.added));
  }
}
