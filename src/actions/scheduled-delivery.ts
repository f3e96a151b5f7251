/**
 * Delivering what the scheduler actor found due. Each item's message (through the same rules
 * and writer as `POST /messages`, checked against the state of now) and the removal of the item
 * go to the store in ONE batch (with the other items of its turn), so a crash at any moment
 * leaves either both or neither: a scheduled message is never sent twice nor lost. A refusal (the sender may no
 * longer post there, or the delivery is more than 10 minutes late) marks the item failed, tells
 * the owner's queues, and the notification bot tells the owner in a direct message. A write the
 * store refuses (a full disk) is tried again by the scheduler with backoff while the server runs.
 *
 * The items of one turn are one transaction (one synced LevelDB write, one hand-over of events),
 * and a wake-up with many items due spreads them over short turns (see `deliverScheduled`).
 */
import { ApiError } from '../domain/errors.js';
import { failureNotice, isTooLate, LATE_FAILURE_MESSAGE, removedEvent, updatedEvents, type ScheduledMessageRecord } from '../domain/scheduled-messages.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import type { Transaction } from '../store/transaction.js';
import { prepareMessage, writeMessage, type OutgoingMessage } from './message-send.js';
import { botDirectMessage, notifyDirect } from './notifications.js';
import { sendRequestOf } from './scheduled-messages.js';
import { keptRender } from '../queries/scheduled-render.js';
import { dropSend, forgetPrepared, keptSend } from './scheduled-prepared.js';
import { withFields } from '../shared/with-fields.js';

/** Zulip's failure for a deactivated sender (who gets no notice: they cannot read it). */
const SENDER_DEACTIVATED = 'Account is deactivated';

/** The message an item sends, or the reason it cannot be sent now. */
function messageOf(services: Services, record: ScheduledMessageRecord, sender: UserRecord | undefined, nowMs: number): OutgoingMessage | string {
  if (isTooLate(record.deliverAt, nowMs)) return LATE_FAILURE_MESSAGE;
  if (!sender?.isActive) return SENDER_DEACTIVATED;
  if (record.kind === 'remind') return botDirectMessage(services, sender, record.content);
  // Checked when it was scheduled, and nothing the check read has changed since.
  const kept = keptSend(services, record, sender);
  if (kept) return kept;
  try {
    // The render made when it was scheduled, when still right: a burst due at once is not
    // rendered again message by message.
    return prepareMessage(services, sender, record.client, withFields(sendRequestOf(record), { rendered: keptRender(services, record.id, record.content) }));
  } catch (error) {
    if (error instanceof ApiError) return error.message;
    throw error;
  }
}

/** Delivers one item, or marks it failed; nothing when it was deleted, failed or moved later meanwhile. */
function deliverOne(services: Services, tx: Transaction, id: number): void {
  const record = services.scheduled.get(id);
  const nowMs = services.clock.now();
  if (!record || record.failed || record.deliverAt * 1000 > nowMs) return;
  const sender = services.org.users.get(record.senderId);
  const message = messageOf(services, record, sender, nowMs);
  if (typeof message !== 'string') {
    writeMessage(services, tx, message);
    services.scheduled.delete(record.id, tx);
    tx.afterCommit.push(() => forgetPrepared(services, record.id));
    tx.emit(removedEvent(record), [record.senderId]);
    return;
  }
  tx.afterCommit.push(() => dropSend(services, record.id));
  const failed: ScheduledMessageRecord = withFields(record, { failed: true, failureMessage: message });
  services.scheduled.save(failed, tx);
  for (const event of updatedEvents(failed)) tx.emit(event, [record.senderId]);
  if (sender?.isActive) notifyDirect(services, tx, sender, failureNotice(record.deliverAt, message));
}

/**
 * CPU time one event-loop turn of deliveries may take: then the turn's writes go to disk together
 * (one synced write) and their events out, while the next turn's are prepared.
 */
const TURN_BUDGET_MS = 5;

/**
 * What the scheduler calls when items are due, in due order: in turns of a few milliseconds each,
 * so that the first messages of a burst reach their readers while the rest are still being
 * prepared (1,000 due in one second would otherwise all wait for the last), and requests are
 * served between turns. A turn's items are ONE write (one transaction, one batch in the store):
 * all of them are delivered or none, never one twice. Resolves with the ids whose write failed
 * (the store refused it): they are still in the store and the scheduler tries them again with
 * backoff. A retry more than 10 minutes late marks the item failed and tells its owner, like any
 * late delivery, so no failure stays silent. The search index waits until the burst is out.
 */
export async function deliverScheduled(services: Services, ids: readonly number[]): Promise<number[]> {
  const failed: number[] = [];
  const writes: Promise<void>[] = [];
  const release = services.search.hold();
  try {
    let next = 0;
    while (next < ids.length) {
      if (next > 0) await new Promise((resolve) => setImmediate(resolve));
      const taken: number[] = [];
      let threw = false;
      const started = performance.now();
      const write = services.write((tx) => {
        try {
          while (next < ids.length && (taken.length === 0 || performance.now() - started <= TURN_BUDGET_MS)) {
            const id = ids[next++]!;
            taken.push(id);
            deliverOne(services, tx, id);
          }
        } catch (error) {
          threw = true;
          throw error;
        }
      });
      // An item that throws undoes its whole turn: the turn's items are then written one by one,
      // so that one bad item does not hold back the others.
      writes.push(write.catch((error: unknown) => (threw ? deliverEach(services, taken, failed) : noteFailed(services, taken, failed, error))));
      // A write path that runs the change later: wait for it, rather than start turns that find nothing.
      if (taken.length === 0) await writes[writes.length - 1];
    }
    await Promise.all(writes);
  } finally {
    release();
  }
  return failed;
}

/** One write per item (after a turn that threw). */
async function deliverEach(services: Services, ids: readonly number[], failed: number[]): Promise<void> {
  await Promise.all(ids.map((id) => services.write((tx) => deliverOne(services, tx, id)).catch((error: unknown) => noteFailed(services, [id], failed, error))));
}

function noteFailed(services: Services, ids: readonly number[], failed: number[], error: unknown): void {
  failed.push(...ids);
  services.logger.error({ err: error, scheduledMessageIds: ids }, 'scheduled delivery failed; it will be tried again');
}
