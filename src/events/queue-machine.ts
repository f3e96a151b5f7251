/**
 * The life of an event queue as an XState machine: `idle` (no poll attached), `polling` (a
 * long-poll is parked), `expired`. Guards depend only on the event's type, so the machine is
 * run through XState's pure `transition()` and each (state, event type) outcome is computed
 * once and remembered: ten thousand queues then cost a string each, not an interpreted actor
 * (a started XState actor weighs ~3.9 KB; a parked poll's whole budget is 2 KB).
 */
import { initialTransition, setup, transition } from 'xstate';

export type QueueState = 'idle' | 'polling' | 'expired';

/** What happens to a queue. The poll variants say what the poll found, so no guard needs the queue's data. */
export type QueueEventType =
  /** A poll that can be answered now (events waiting, or dont_block). */
  | 'POLL_ANSWERABLE'
  /** A poll that must wait for an event. */
  | 'POLL_WAIT'
  /** An event arrived for the queue. */
  | 'EVENT'
  /** The end of the current batch of deliveries: time to answer a parked poll. */
  | 'FLUSH'
  /** The parked poll has been quiet for the heartbeat interval. */
  | 'HEARTBEAT'
  /** The client of the parked poll went away. */
  | 'ABORT'
  /** Nobody polled for the queue's lifetime. */
  | 'EXPIRE'
  /** DELETE /events, or the server is shutting down the queue. */
  | 'DELETE';

/** Side effects the queue runtime performs, named in the machine. */
export type QueueAction =
  | 'answerNow'
  | 'park'
  | 'answerParked'
  | 'answerParkedWithHeartbeat'
  | 'answerParkedEmpty'
  | 'dropParked'
  | 'buffer'
  | 'scheduleFlush'
  | 'forget';

const noop = () => {};

export const queueMachine = setup({
  types: { events: {} as { type: QueueEventType } },
  actions: {
    answerNow: noop,
    park: noop,
    answerParked: noop,
    answerParkedWithHeartbeat: noop,
    answerParkedEmpty: noop,
    dropParked: noop,
    buffer: noop,
    scheduleFlush: noop,
    forget: noop,
  },
}).createMachine({
  id: 'eventQueue',
  initial: 'idle',
  states: {
    idle: {
      on: {
        POLL_ANSWERABLE: { actions: 'answerNow' },
        POLL_WAIT: { target: 'polling', actions: 'park' },
        EVENT: { actions: 'buffer' },
        EXPIRE: { target: 'expired', actions: 'forget' },
        DELETE: { target: 'expired', actions: 'forget' },
      },
    },
    polling: {
      on: {
        // A second poll finishes the first one with what the queue holds (usually nothing).
        POLL_ANSWERABLE: { target: 'idle', actions: ['answerParkedEmpty', 'answerNow'] },
        POLL_WAIT: { target: 'polling', actions: ['answerParkedEmpty', 'park'] },
        // Answered once the deliveries of this commit are all in: one response carries them all.
        EVENT: { actions: ['buffer', 'scheduleFlush'] },
        FLUSH: { target: 'idle', actions: 'answerParked' },
        HEARTBEAT: { target: 'idle', actions: 'answerParkedWithHeartbeat' },
        ABORT: { target: 'idle', actions: 'dropParked' },
        DELETE: { target: 'expired', actions: ['answerParkedEmpty', 'forget'] },
      },
    },
    expired: { type: 'final' },
  },
});

export interface Step {
  next: QueueState;
  actions: readonly QueueAction[];
}

const [initialSnapshot] = initialTransition(queueMachine);
const snapshots = new Map<QueueState, typeof initialSnapshot>([['idle', initialSnapshot]]);
/** By state, then event: no key to build on the delivery path (it runs once per queue per commit). */
const steps = new Map<QueueState, Map<QueueEventType, Step>>();

/** The outcome of `event` in `state`, from the machine (computed once per pair). */
export function step(state: QueueState, event: QueueEventType): Step {
  let byEvent = steps.get(state);
  if (!byEvent) steps.set(state, (byEvent = new Map()));
  let found = byEvent.get(event);
  if (!found) {
    const snapshot = snapshots.get(state);
    if (!snapshot) throw new Error(`queue state ${state} was never reached`);
    const [nextSnapshot, actions] = transition(queueMachine, snapshot, { type: event });
    const next = nextSnapshot.value as QueueState;
    if (!snapshots.has(next)) snapshots.set(next, nextSnapshot);
    found = { next, actions: Object.freeze(actions.map((action) => action.type as QueueAction)) };
    byEvent.set(event, found);
  }
  return found;
}

export const INITIAL_QUEUE_STATE: QueueState = 'idle';
