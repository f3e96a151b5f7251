/**
 * The message store's decoded records, most recently used kept (a Map, whose order is the
 * eviction order). A hit takes its place at the back again only when half the cache has been
 * read in since it last did: a page read again and again then costs a lookup, not two Map writes
 * (and the rehashing their holes bring), while a record used at least that often is never the
 * oldest when one must go.
 *
 * A record read from the store is kept only at its second read while its id is still among the
 * ids read lately (`admit`): scrolling back through old history reads each record once, and
 * keeping those pushed out what is read again and again (the newest pages of the channels) while
 * every one of them, kept a while and then dropped, went through the collector's old generation.
 * In the mixed bench (scroll back is a fifth of the reads) that churn was the server's steady
 * source of major collections, whose marking stalled the event loop under load. A record read once
 * is garbage as soon as its answer is written, and dies young.
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
  /** Ids of records read from the store once lately and not kept, oldest first (numbers only: no record held). */
  private readonly readOnce = new Set<number>();

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

  /**
   * A record just read from the store: kept when its id was read once lately (the second read of
   * it), else its id is noted and the record is not kept.
   */
  admit(record: MessageRecord): void {
    if (this.readOnce.delete(record.id)) {
      this.set(record);
      return;
    }
    this.readOnce.add(record.id);
    if (this.readOnce.size > this.maxRecords) this.readOnce.delete(this.readOnce.values().next().value!);
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
