/**
 * One registered event queue: its options, the events not yet acknowledged, and the parked
 * long-poll if any. What happens on a poll, an event, a heartbeat or a disconnect is decided
 * by the queue machine (queue-machine.ts); this class performs the actions it names.
 */
import { ApiError, badRequest } from '../domain/errors.js';
import { Deferred, RawJson, type AbortListener } from '../shared/handler-result.js';
import { INITIAL_QUEUE_STATE, step, type QueueAction, type QueueEventType, type QueueState } from './queue-machine.js';

/** An event as one variant of queues receives it: its id and its JSON (shared between queues). */
export interface QueuedEvent {
  readonly id: number;
  readonly json: string;
  /**
   * The JSON as UTF-8, encoded when the event is first answered and then copied into every
   * answer that carries it (ten thousand parked polls answered with one message encode it once).
   */
  bytes: Buffer | undefined;
}

export interface QueueCapabilities {
  bulkMessageDeletion: boolean;
  emptyTopicName: boolean;
  streamTypingNotifications: boolean;
  userSettingsObject: boolean;
  notificationSettingsNull: boolean;
  userAvatarUrlFieldOptional: boolean;
  /** Knows deactivated user groups (absent in descriptors written before it existed). */
  includeDeactivatedGroups?: boolean;
  /** Knows archived channels (`archived_channels`): archiving is an update, not a deletion (absent before it existed). */
  archivedChannels?: boolean;
  /** Takes linkifiers with URL templates (absent in descriptors written before it existed). */
  linkifierUrlTemplate?: boolean;
}

/** What is persisted about a queue, so that it can be rebuilt after a restart. */
export interface QueueDescriptor {
  id: string;
  userId: number;
  /** Event types the queue receives; null: all. */
  eventTypes: string[] | null;
  narrow: [string, string][];
  applyMarkdown: boolean;
  clientGravatar: boolean;
  allPublicStreams: boolean;
  /**
   * Sees the messages of every public channel (all_public_streams, or a narrow), not only of
   * its user's; false for guests, who may not read public channels they are not in. Absent in
   * descriptors written before it existed.
   */
  watchesPublicChannels?: boolean;
  /** Presence in the slim format: events without `email` (absent in descriptors written before it existed). */
  slimPresence?: boolean;
  capabilities: QueueCapabilities;
  lifespanSeconds: number;
  /** Events with ids up to this one were settled before the queue existed. */
  minId: number;
  /** The newest acknowledged (pruned) event id; -1 when none. */
  ack: number;
  /** Unix ms of the last poll. */
  lastPoll: number;
}

/** What a queue tells the one who keeps it. */
export interface QueueOwner {
  /** A poll moved the acknowledgement: it is to reach disk (with the next write). */
  acknowledged(queue: EventQueue): void;
  /**
   * Asked to call `flush()` once the deliveries of the current commit are all in (the owner
   * batches every queue of a commit into one turn's check phase, rather than one callback per queue).
   */
  flushWanted(queue: EventQueue): void;
}

/** A queue kept by nobody: acknowledgements stay in memory, each flush is its own microtask. */
const ALONE: QueueOwner = {
  acknowledged: () => {},
  flushWanted: (queue) => queueMicrotask(() => queue.flush()),
};

/** The origin of `heartbeatDue`: the process's start, so that due times stay small integers for weeks. */
const CLOCK_BASE = Date.now();

export class EventQueue implements AbortListener {
  state: QueueState = INITIAL_QUEUE_STATE;
  readonly pending: QueuedEvent[] = [];
  /** The newest id pushed into this queue (or its ack when nothing newer was). */
  lastIssued: number;
  parked: Deferred | undefined;
  /**
   * When the parked poll gets a heartbeat, in ms after CLOCK_BASE: a small integer, which V8
   * keeps in the object itself, where Unix ms would take a boxed number of 16 bytes per queue.
   */
  private heartbeatDue = 0;
  /** A FLUSH is scheduled for the end of the current deliveries. */
  private flushScheduled = false;
  /** Shared variant key of the events this queue receives (see variants.ts). */
  readonly variant: string;

  constructor(
    readonly descriptor: QueueDescriptor,
    variant: string,
    /** Who keeps the queues: one object for all of them (two callbacks per queue would cost each one 8 bytes more). */
    private readonly owner: QueueOwner = ALONE,
  ) {
    this.lastIssued = descriptor.ack;
    this.variant = variant;
  }

  get id(): string {
    return this.descriptor.id;
  }

  get userId(): number {
    return this.descriptor.userId;
  }

  /**
   * GET /events: drops acknowledged events (with Zulip's errors for an id already pruned or
   * never issued), then answers now or parks the poll.
   */
  poll(lastEventId: number, dontBlock: boolean, now: number, defer: () => Deferred, heartbeatMs: number): RawJson | Deferred {
    const d = this.descriptor;
    if (lastEventId < d.ack) throw badRequest(`An event newer than ${lastEventId} has already been pruned!`);
    let popped = 0;
    while (popped < this.pending.length && this.pending[popped].id <= lastEventId) popped++;
    if (popped > 0) {
      d.ack = this.pending[popped - 1].id;
      // Usually everything was acknowledged: emptied in place (splice builds the removed list and may change the array's kind).
      if (popped === this.pending.length) this.pending.length = 0;
      else this.pending.splice(0, popped);
      this.owner.acknowledged(this);
    }
    if (d.ack !== lastEventId) throw badRequest(`Event ${lastEventId} was not in this queue`);
    d.lastPoll = now;
    const answerable = dontBlock || this.pending.length > 0;
    let result: RawJson | Deferred | undefined;
    this.run(answerable ? 'POLL_ANSWERABLE' : 'POLL_WAIT', (action) => {
      if (action === 'answerNow') result = this.eventsAnswer(false);
      else if (action === 'park') {
        result = defer();
        this.parked = result;
        this.heartbeatDue = now + heartbeatMs - CLOCK_BASE;
        result.onAbort(this);
      }
    });
    if (!result) throw new ApiError('BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${this.id}`, 400, { queue_id: this.id });
    return result;
  }

  /** Adds an event; a parked poll is answered at once. */
  push(event: QueuedEvent): void {
    if (event.id <= this.descriptor.minId || event.id <= this.descriptor.ack || event.id <= this.lastIssued) return;
    this.run('EVENT', undefined, event);
  }

  /**
   * Puts events older than every pending one in front of them: a restored queue's backlog,
   * given at its first poll (events/backlog.ts), before any poll is answered.
   */
  prepend(events: readonly QueuedEvent[]): void {
    if (events.length === 0) return;
    const newer = this.pending.splice(0);
    for (const event of events) this.pending.push(event);
    for (const event of newer) this.pending.push(event);
    this.lastIssued = Math.max(this.lastIssued, events[events.length - 1]!.id);
  }

  /** A poll is parked and has been quiet for its heartbeat interval at `now` (Unix ms). */
  heartbeatIsDue(now: number): boolean {
    return this.state === 'polling' && this.heartbeatDue <= now - CLOCK_BASE;
  }

  heartbeat(): void {
    this.run('HEARTBEAT');
  }

  /** The client of the parked poll went away. */
  parkAborted(): void {
    this.run('ABORT');
  }

  expire(): void {
    this.run('EXPIRE');
  }

  /** Removes the queue, finishing a parked poll with the events it holds. */
  delete(): void {
    this.run('DELETE');
  }

  get expired(): boolean {
    return this.state === 'expired';
  }

  private run(type: QueueEventType, extra?: (action: QueueAction) => void, event?: QueuedEvent): void {
    const { next, actions } = step(this.state, type);
    this.state = next;
    for (const action of actions) {
      switch (action) {
        case 'buffer':
          this.pending.push(event!);
          this.lastIssued = event!.id;
          break;
        case 'scheduleFlush':
          if (!this.flushScheduled) {
            this.flushScheduled = true;
            this.owner.flushWanted(this);
          }
          break;
        case 'answerParked':
          this.finishParked(this.eventsAnswer(true));
          break;
        case 'answerParkedEmpty':
          this.finishParked(this.eventsAnswer(true));
          break;
        case 'answerParkedWithHeartbeat':
          this.finishParked(new RawJson(`"events":[{"type":"heartbeat","id":${this.lastIssued}}],${this.queueIdField()}`));
          break;
        case 'dropParked':
          this.parked = undefined;
          break;
        case 'forget':
          this.pending.length = 0;
          break;
        default:
          extra?.(action);
      }
    }
  }

  /** Answers the parked poll with what has been delivered (see `QueueOwner.flushWanted`). */
  flush(): void {
    this.flushScheduled = false;
    this.run('FLUSH');
  }

  private finishParked(answer: RawJson): void {
    const parked = this.parked;
    this.parked = undefined;
    parked?.resolve(answer);
  }

  /**
   * `"events":[…]` (and the queue id, which Zulip adds when a long-poll completes). The events go
   * as their shared UTF-8 bytes, each encoded once for every queue it is answered to; only the
   * queue id is this queue's own.
   */
  private eventsAnswer(withQueueId: boolean): RawJson {
    const pieces: Buffer[] = [EVENTS_OPEN];
    for (let i = 0; i < this.pending.length; i++) {
      const event = this.pending[i];
      if (i > 0) pieces.push(COMMA);
      pieces.push((event.bytes ??= Buffer.from(event.json)));
    }
    pieces.push(EVENTS_CLOSE);
    return new RawJson(withQueueId ? this.queueIdField() : '', undefined, [pieces]);
  }

  /**
   * Queue ids are ours, base64url (or, in descriptors written before, UUIDs): nothing in them
   * needs escaping, so the field is written without JSON.stringify on the answer path.
   */
  private queueIdField(): string {
    return `"queue_id":"${this.id}"`;
  }
}

const EVENTS_OPEN = Buffer.from('"events":[');
const COMMA = Buffer.from(',');
const EVENTS_CLOSE = Buffer.from(']');
