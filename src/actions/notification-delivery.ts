/**
 * Delivering what the notification outbox holds: mobile pushes through the bouncer
 * (actions/push-notify.ts) and missed-message email batches (actions/missed-message-email.ts),
 * outside every request. An item leaves the outbox only once it is delivered (or refused for
 * good), in a write after the delivery: at least once, never lost across a crash. A bouncer or
 * mail server that is down is retried with backoff and logged; sending messages never waits.
 *
 * A backlog of any size (a million followed-topic messages, a long outage) drains in rounds of
 * bounded work: a round delivers at most PUSHES_PER_ROUND pushes and MAIL_PASSES_PER_ROUND mail
 * passes (each of at most MAIL_ITEMS_PER_PASS messages), walks the outbox without copying or
 * sorting it, and the next round starts from setImmediate, so requests are answered in between.
 */
import { retryDelaySeconds } from '../domain/notification-rules.js';
import type { Services } from '../services.js';
import { deliverMailBatch } from './missed-message-email.js';
import { notifyWhenQueuesGone } from './notification-queue-gone.js';
import { deliverPushJob } from './push-notify.js';

type Outcome = 'done' | 'retry';

/** Pushes one round sends at most (each awaits the bouncer, so the loop turns between them too). */
export const PUSHES_PER_ROUND = 50;
/** Mail passes one round makes at most. */
export const MAIL_PASSES_PER_ROUND = 2;

/** Backoff key of the bouncer: when it is down it is down for every push, which then all wait. */
const BOUNCER = 'push';

export class NotificationDelivery {
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private round: Promise<boolean> | undefined;
  private again = false;
  private stopped = false;
  /** What failed: when to try again (unix ms) and how often it failed, by `push` (the bouncer) or `mail:<user>`. */
  private readonly backoff = new Map<string, { at: number; attempts: number }>();

  constructor(private readonly services: Services) {}

  /** Starts delivering what is pending (left by a crash, or due) and whatever is decided from now on. */
  start(): void {
    this.services.notifications.onChange = () => this.wake();
    this.services.queues.onLastQueueGone = (userId, pending) => notifyWhenQueuesGone(this.services, userId, pending);
    this.wake();
  }

  /** Runs a round now, or right after the one under way. */
  wake(): void {
    if (this.stopped) return;
    if (this.round) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    clearImmediate(this.immediate);
    this.immediate = undefined;
    const round = this.deliverDue().catch((error: unknown) => {
      this.services.logger.error({ err: error }, 'notification delivery failed');
      return false;
    });
    this.round = round;
    void round.then((more) => {
      this.round = undefined;
      if (this.again || more) {
        this.again = false;
        // The next round after the I/O waiting now: requests are answered between rounds.
        if (!this.stopped) this.immediate = setImmediate(() => this.wake());
      } else this.arm();
    });
  }

  /** Stops; a round under way finishes first (before the database closes). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.services.notifications.onChange = undefined;
    this.services.queues.onLastQueueGone = undefined;
    clearTimeout(this.timer);
    clearImmediate(this.immediate);
    await this.round;
  }

  private waiting(key: string, now: number): boolean {
    const entry = this.backoff.get(key);
    return entry !== undefined && entry.at > now;
  }

  private settle(key: string, outcome: Outcome, what: Record<string, unknown>): void {
    if (outcome === 'done') {
      this.backoff.delete(key);
      return;
    }
    const attempts = (this.backoff.get(key)?.attempts ?? 0) + 1;
    const delay = retryDelaySeconds(attempts);
    this.backoff.set(key, { at: this.services.clock.now() + delay * 1000, attempts });
    this.services.logger.warn({ ...what, attempts, retryInSeconds: delay }, 'notification not delivered; will retry');
  }

  /** One round of bounded work; true when more is due at once (the next round follows right away). */
  private async deliverDue(): Promise<boolean> {
    const pushesLeft = await this.deliverPushes();
    const mailLeft = await this.deliverMail();
    return pushesLeft || mailLeft;
  }

  /** Up to PUSHES_PER_ROUND pushes, oldest first; a bouncer that cannot take one now stops them all until its retry. */
  private async deliverPushes(): Promise<boolean> {
    const { notifications, clock } = this.services;
    if (this.waiting(BOUNCER, clock.now())) return false;
    let sent = 0;
    // The map's live iterator: jobs delivered meanwhile are gone from it, new ones come at its end.
    for (const job of notifications.jobsInOrder()) {
      if (this.stopped) return false;
      if (sent >= PUSHES_PER_ROUND) return true;
      const outcome = await deliverPushJob(this.services, job);
      sent++;
      this.settle(BOUNCER, outcome, { job: job.id, user: job.userId });
      if (outcome === 'retry') return false;
    }
    return false;
  }

  /**
   * Up to MAIL_PASSES_PER_ROUND passes over due batches. A batch with more left after its pass
   * goes to the back of the line, so one huge backlog does not hold up everyone else's mail.
   */
  private async deliverMail(): Promise<boolean> {
    const { notifications, clock } = this.services;
    const isDue = (userId: number, now: number) => {
      const dueAt = notifications.batchDueAt(userId);
      return dueAt !== undefined && dueAt * 1000 <= now && !this.waiting(`mail:${userId}`, now);
    };
    const due: number[] = [];
    for (const userId of notifications.batchUsers()) {
      if (!isDue(userId, clock.now())) continue;
      due.push(userId);
      if (due.length > MAIL_PASSES_PER_ROUND) break;
    }
    let more = due.length > MAIL_PASSES_PER_ROUND;
    for (const userId of due.slice(0, MAIL_PASSES_PER_ROUND)) {
      if (this.stopped) return false;
      this.settle(`mail:${userId}`, await deliverMailBatch(this.services, userId), { mailFor: userId });
      if (isDue(userId, clock.now())) {
        notifications.requeueBatch(userId);
        more = true;
      }
    }
    return more;
  }

  /** Sleeps until the next batch is due or the next retry (one look at each user with a batch, none at the pushes). */
  private arm(): void {
    if (this.stopped) return;
    const { notifications } = this.services;
    let next = Infinity;
    if (notifications.jobCount > 0) next = this.backoff.get(BOUNCER)?.at ?? 0;
    for (const userId of notifications.batchUsers()) {
      next = Math.min(next, Math.max(notifications.batchDueAt(userId)! * 1000, this.backoff.get(`mail:${userId}`)?.at ?? 0));
    }
    if (next === Infinity) return;
    const delay = Math.max(0, next - this.services.clock.now());
    // Whole seconds matter for batches; a short floor keeps a failing loop from spinning.
    this.timer = setTimeout(() => this.wake(), Math.min(Math.max(delay, 50), 2 ** 31 - 1));
    this.timer.unref();
  }
}
