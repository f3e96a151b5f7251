/**
 * The commit pipeline: gives each event of a transaction an id, appends it to the event log
 * in the same batch as the change, writes the batch (group commit), and once it is durable
 * hands the events to the queues. Events for users without queues are not logged: a queue
 * registered later starts from the state, not from old events.
 */
import type { Database } from '../store/database.js';
import type { EventLog } from '../store/event-log.js';
import type { Audience, Transaction } from '../store/transaction.js';
import type { EventQueues } from './queues.js';
import type { LoggedEvent } from './variants.js';

export class EventPublisher {
  constructor(
    private readonly db: Database,
    private readonly log: EventLog,
    private readonly queues: EventQueues,
    /** Is this message event in a public channel (for queues watching all of them)? */
    private readonly isPublicChannelMessage: (event: Record<string, unknown>) => boolean,
  ) {}

  /**
   * Logs the transaction's events and writes its batch. If anything fails before the batch is
   * durable, the transaction is rolled back (the store does it for a failed write) and the
   * error is passed on: nothing of it stays in memory, nothing is delivered.
   */
  async commit(tx: Transaction): Promise<void> {
    let logged: LoggedEvent[];
    let ops;
    try {
      logged = this.logEvents(tx);
      ops = tx.seal();
    } catch (error) {
      tx.rollback();
      throw error;
    }
    await this.db.commit(ops, () => tx.rollback());
    for (const after of tx.afterCommit) after();
    if (logged.length > 0) this.queues.deliver(logged);
  }

  /** The members of an audience who hold queues. */
  private listeners(audience: Audience): number[] {
    if ('length' in audience) return audience.filter((id) => this.queues.hasQueues(id));
    const { members, accepts } = audience;
    const found: number[] = [];
    if (members.size <= this.queues.listenerCount) {
      for (const id of members) if (this.queues.hasQueues(id) && accepts(id)) found.push(id);
    } else {
      for (const id of this.queues.listeners()) if (members.has(id) && accepts(id)) found.push(id);
    }
    return found;
  }

  /** Gives each event that someone listens to an id and writes it to the log in `tx`. */
  private logEvents(tx: Transaction): LoggedEvent[] {
    const logged: LoggedEvent[] = [];
    for (const pending of tx.events) {
      const userIds = this.listeners(pending.userIds);
      const watched = this.queues.hasWatchers && typeof pending.event !== 'function' && pending.event.type === 'message';
      const publicChannel = watched && this.isPublicChannelMessage(pending.event as Record<string, unknown>);
      if (userIds.length === 0 && !publicChannel) continue;
      const event = typeof pending.event === 'function' ? pending.event() : pending.event;
      const entry: LoggedEvent = { id: this.queues.nextEventId(tx), event, userIds };
      const flags = pending.flags;
      if (typeof flags === 'function') entry.flags = userIds.map((id) => [id, flags(id)] as const);
      else if (flags) entry.flags = userIds.filter((id) => flags.has(id)).map((id) => [id, flags.get(id)!] as const);
      if (pending.forQueue) entry.forQueue = pending.forQueue;
      if (publicChannel) entry.publicChannel = true;
      this.log.append(entry.id, entry, tx);
      logged.push(entry);
    }
    return logged;
  }
}
