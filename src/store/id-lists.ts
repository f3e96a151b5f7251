/**
 * Whole index ranges held in memory: the message ids under a key prefix (a topic's, a channel's,
 * a conversation's, a sender's), read once in the background on first use and kept current as
 * batches are written, so that reading the newest page of a narrow walks an array instead of
 * opening a LevelDB iterator. Bounded by the number of ids held; least recently used lists go.
 *
 * Consistency: a change is applied when its batch is queued (as in-memory state shows it), undone
 * if the batch rolls back, and applied again once it is durable, since a list read from disk in
 * between did not see it. While a list is being read, changes made meanwhile are noted and
 * applied after the read, each one idempotently (an id added that the read already saw, or removed that it never saw, changes
 * nothing), so a change is never lost whether the read's snapshot holds it or not.
 */

interface IdList {
  /** Ascending ids; undefined while the list is being read. */
  ids: number[] | undefined;
  /** Changes made while the list was read: [added, id]. */
  pending: [boolean, number][];
}

/** The index of the first id ≥ `id` in ascending `ids`. */
function lowerBound(ids: readonly number[], id: number): number {
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (ids[middle]! < id) low = middle + 1;
    else high = middle;
  }
  return low;
}

function insert(ids: number[], id: number): void {
  const last = ids[ids.length - 1];
  if (last === undefined || id > last) {
    ids.push(id);
    return;
  }
  const at = lowerBound(ids, id);
  if (ids[at] !== id) ids.splice(at, 0, id);
}

function remove(ids: number[], id: number): void {
  const at = lowerBound(ids, id);
  if (ids[at] === id) ids.splice(at, 1);
}

/** How many lists may wait for their read. */
const MAX_WANTED = 256;

export class IdLists {
  /** By prefix, least recently used first. */
  private readonly lists = new Map<string, IdList>();
  private held = 0;
  /** Prefixes with more ids than a list may hold: never read whole. */
  private readonly tooLong = new Set<string>();
  /** One list is read at a time: the reads of a busy server stay a background trickle. */
  private reading = false;
  /**
   * Lists walked while another was being read, read next in turn (at most MAX_WANTED): a
   * reader of many lists at once (POST /register's unread messages) has them all in memory
   * after one pass, not after one pass per list.
   */
  private readonly wanted = new Set<string>();
  /** Lists read into memory and walks served from memory (tests and benches see them at work). */
  readonly counts = { loaded: 0, served: 0 };

  constructor(
    /** Every id under a prefix, in order, as on disk. */
    private readonly read: (prefix: string) => AsyncIterable<number>,
    private readonly maxIds = 2_000_000,
  ) {}

  /**
   * The ids in [lo, hi] of `prefix`'s list from memory, newest first when `reverse`; undefined
   * when the list is not in memory (then its read is started, if none is under way).
   */
  walk(prefix: string, lo: number, hi: number, reverse: boolean): Iterable<number> | undefined {
    const list = this.served(prefix);
    return list && walkIds(list, lo, hi, reverse);
  }

  /**
   * The ids in [lo, hi] of `prefix`'s list from memory as an array of their own (ascending, or
   * newest first when `reverse`), for a reader that takes the whole range at once; undefined as
   * `walk`.
   */
  slice(prefix: string, lo: number, hi: number, reverse: boolean): number[] | undefined {
    const ids = this.served(prefix)?.ids;
    if (ids === undefined) return undefined;
    const range = ids.slice(lowerBound(ids, lo), lowerBound(ids, hi + 1));
    return reverse ? range.reverse() : range;
  }

  /**
   * `prefix`'s list when its ids are in memory, counted as served and made the most recently
   * used; otherwise undefined, and its read is started (or queued while another is under way).
   */
  private served(prefix: string): (IdList & { ids: number[] }) | undefined {
    const list = this.lists.get(prefix);
    if (list?.ids === undefined) {
      if (list === undefined && !this.tooLong.has(prefix)) {
        if (!this.reading) void this.load(prefix);
        else if (this.wanted.size < MAX_WANTED) this.wanted.add(prefix);
      }
      return undefined;
    }
    // Most recently used last.
    this.lists.delete(prefix);
    this.lists.set(prefix, list);
    this.counts.served++;
    return list as IdList & { ids: number[] };
  }

  /** A batch lists `id` under `prefix` (or its rollback restores it). */
  added(prefix: string, id: number): void {
    const list = this.lists.get(prefix);
    if (list === undefined) return;
    if (list.ids === undefined) list.pending.push([true, id]);
    else {
      const before = list.ids.length;
      insert(list.ids, id);
      this.held += list.ids.length - before;
      this.evict();
    }
  }

  /** A batch takes `id` from `prefix` (or its rollback takes back its addition). */
  removed(prefix: string, id: number): void {
    const list = this.lists.get(prefix);
    if (list === undefined) return;
    if (list.ids === undefined) list.pending.push([false, id]);
    else {
      const before = list.ids.length;
      remove(list.ids, id);
      this.held -= before - list.ids.length;
    }
  }

  private async load(prefix: string): Promise<void> {
    const list: IdList = { ids: undefined, pending: [] };
    // Noted before the read begins, so that every change made from now on is seen.
    this.lists.set(prefix, list);
    this.reading = true;
    const ids: number[] = [];
    try {
      for await (const id of this.read(prefix)) {
        ids.push(id);
        if (ids.length > this.maxIds / 2) {
          this.tooLong.add(prefix);
          throw new Error('too long to hold');
        }
      }
    } catch {
      // Too long, or the store closing: this prefix is walked on disk, as before.
      if (this.lists.get(prefix) === list) this.lists.delete(prefix);
      // The others wait for the next walk unless this one was only too long.
      if (this.tooLong.has(prefix)) this.loadWanted();
      else this.wanted.clear();
      return;
    } finally {
      this.reading = false;
    }
    if (this.lists.get(prefix) === list) {
      for (const [added, id] of list.pending) (added ? insert : remove)(ids, id);
      list.pending = [];
      list.ids = ids;
      this.held += ids.length;
      this.counts.loaded++;
      this.evict();
    }
    this.loadWanted();
  }

  /** Starts the read of the next wanted list that is still neither held nor too long. */
  private loadWanted(): void {
    for (const prefix of this.wanted) {
      this.wanted.delete(prefix);
      if (this.lists.has(prefix) || this.tooLong.has(prefix)) continue;
      void this.load(prefix);
      return;
    }
  }

  private evict(): void {
    for (const [prefix, list] of this.lists) {
      if (this.held <= this.maxIds) return;
      if (list.ids === undefined) continue;
      this.lists.delete(prefix);
      this.held -= list.ids.length;
    }
  }
}

/** What an iterator answers once it is done. */
const DONE: IteratorReturnResult<undefined> = { value: undefined, done: true };

/**
 * Walks a list that may change between steps (a commit lands while the caller awaits): each step
 * finds its place again from the last id given, so ids added or removed meanwhile are met or
 * skipped as a walk on disk would, and none is given twice. An iterator object rather than a
 * generator: a page from memory takes its ids in one loop, where each generator step (a resume
 * and a suspension) cost more than the step itself.
 */
class IdWalk implements IterableIterator<number> {
  private last: number | undefined = undefined;
  private at = -1;
  private done = false;

  constructor(
    private readonly list: IdList,
    private readonly lo: number,
    private readonly hi: number,
    private readonly reverse: boolean,
  ) {}

  [Symbol.iterator](): IterableIterator<number> {
    return this;
  }

  next(): IteratorResult<number, undefined> {
    if (this.done) return DONE;
    const { list, lo, hi, reverse, last } = this;
    const ids = list.ids;
    if (ids === undefined) return this.finish();
    let at = this.at;
    if (last === undefined) at = reverse ? lowerBound(ids, hi + 1) - 1 : lowerBound(ids, lo);
    else if (ids[at] === last) at += reverse ? -1 : 1;
    else at = reverse ? lowerBound(ids, last) - 1 : lowerBound(ids, last + 1);
    this.at = at;
    const id = ids[at];
    if (id === undefined || id < lo || id > hi) return this.finish();
    this.last = id;
    return { value: id, done: false };
  }

  /** A loop left early (`break`) ends the walk, as it ends a generator. */
  return(): IteratorReturnResult<undefined> {
    return this.finish();
  }

  private finish(): IteratorReturnResult<undefined> {
    this.done = true;
    return DONE;
  }
}

function walkIds(list: IdList, lo: number, hi: number, reverse: boolean): Iterable<number> {
  return new IdWalk(list, lo, hi, reverse);
}
