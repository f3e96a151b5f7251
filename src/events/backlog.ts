/**
 * The backlog of the queues restored at start: the log entries they had not acknowledged. A
 * restart reads none of it, so its time does not grow with what the queues held; the entries are
 * read when the first restored queue is polled, once for all of them, and each queue is given
 * its events at its own first poll. A queue never polled again costs nothing until it expires.
 * Each entry keeps one variant cache, so queues alike share their copies of an event, as when
 * events are delivered live.
 */
import type { EventLog } from '../store/event-log.js';
import type { EventQueue, QueueDescriptor, QueuedEvent } from './event-queue.js';
import { acceptsEvent } from './queue-filter.js';
import { VariantCache, type LoggedEvent } from './variants.js';

/** The entries of the backlog, and for each user the positions of the entries addressed to them. */
interface Entries {
  list: VariantCache[];
  byUser: Map<number, number[]>;
}

/** The newest event a queue does not need: what it acknowledged, or what was settled before it existed. */
export const neededAfter = (d: QueueDescriptor): number => Math.max(d.ack, d.minId);

export class Backlog {
  private readonly waiting = new Set<EventQueue>();
  private reading: Promise<Entries> | undefined;

  constructor(
    private readonly log: EventLog,
    /** The newest event logged before the restart: newer ones reach the queues live. */
    private readonly through: number,
  ) {}

  /** A restored queue that needs events up to `through`. */
  add(queue: EventQueue): void {
    if (neededAfter(queue.descriptor) < this.through) this.waiting.add(queue);
  }

  has(queue: EventQueue): boolean {
    return this.waiting.has(queue);
  }

  get size(): number {
    return this.waiting.size;
  }

  /** The queue went (deleted or expired): it needs nothing; the entries go once no queue waits. */
  drop(queue: EventQueue): void {
    this.waiting.delete(queue);
    if (this.waiting.size === 0) this.reading = undefined;
  }

  /**
   * Puts the queue's backlog in front of what it received since the restart (once; a second
   * poll waiting meanwhile finds it done), then calls `filled`, in the same turn, so no poll
   * sees the queue half filled. `watches`: the queue sees every public channel's messages.
   */
  async fill(queue: EventQueue, watches: boolean, filled: (queue: EventQueue) => void): Promise<void> {
    if (!this.waiting.has(queue)) return;
    const entries = await this.entries();
    if (!this.waiting.has(queue)) return;
    this.drop(queue);
    queue.prepend(select(entries, queue, watches));
    filled(queue);
  }

  /** The entries, read once; a failed read is tried again by the next poll. */
  private entries(): Promise<Entries> {
    if (!this.reading) {
      const reading = this.read();
      this.reading = reading;
      reading.catch(() => {
        if (this.reading === reading) this.reading = undefined;
      });
    }
    return this.reading;
  }

  private async read(): Promise<Entries> {
    let after = this.through;
    for (const queue of this.waiting) after = Math.min(after, neededAfter(queue.descriptor));
    const entries: Entries = { list: [], byUser: new Map() };
    for await (const logged of this.log.entriesAfter<LoggedEvent>(after)) {
      if (logged.id > this.through) break;
      for (const userId of logged.userIds) {
        let positions = entries.byUser.get(userId);
        if (!positions) entries.byUser.set(userId, (positions = []));
        // Once per entry, should an audience name a user twice.
        if (positions.at(-1) !== entries.list.length) positions.push(entries.list.length);
      }
      entries.list.push(new VariantCache(logged));
    }
    return entries;
  }
}

/** What `queue` receives of the entries, as live delivery decides (events/queues.ts `deliver`). */
function select({ list, byUser }: Entries, queue: EventQueue, watches: boolean): QueuedEvent[] {
  const d = queue.descriptor;
  const after = neededAfter(d);
  const mine = byUser.get(d.userId) ?? [];
  const events: QueuedEvent[] = [];
  if (!watches) {
    for (const position of mine) {
      const variants = list[position]!;
      if (variants.logged.id > after && acceptsEvent(d, variants.logged.event, variants.flagsOf(d.userId))) events.push(variants.for(queue));
    }
    return events;
  }
  // A watcher also gets public channels' messages not addressed to its user: every entry, in order.
  let next = 0;
  for (let position = 0; position < list.length; position++) {
    const recipient = mine[next] === position;
    if (recipient) next++;
    const variants = list[position]!;
    const { logged } = variants;
    if (logged.id <= after) continue;
    if (recipient) {
      if (acceptsEvent(d, logged.event, variants.flagsOf(d.userId))) events.push(variants.for(queue));
    } else if (logged.publicChannel === true && acceptsEvent(d, logged.event, undefined)) {
      events.push(variants.for(queue, false));
    }
  }
  return events;
}
