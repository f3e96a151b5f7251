/**
 * Delivering what the notification outbox holds: mobile pushes through the bouncer
 * (actions/push-notify.ts) and missed-message email batches (actions/missed-message-email.ts),
 * outside every request. An item leaves the outbox only once it is delivered (or refused for
 * good), in a write after the delivery: at least once, never lost across a crash. A bouncer or
 * mail server that is down is retried with backoff and logged; sending messages never waits.
 */
import { retryDelaySeconds } from '../domain/notification-rules.js';
import type { Services } from '../services.js';
import { deliverMailBatch } from './missed-message-email.js';
import { deliverPushJob } from './push-notify.js';

type Outcome = 'done' | 'retry';

export class NotificationDelivery {
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  /** Items that failed: when to try again (unix ms) and how often they failed, by `push:<id>` or `mail:<user>`. */
  private readonly backoff = new Map<string, { at: number; attempts: number }>();

  constructor(private readonly services: Services) {}

  /** Starts delivering what is pending (left by a crash, or due) and whatever is decided from now on. */
  start(): void {
    this.services.notifications.onChange = () => this.wake();
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
    this.round = this.deliverDue()
      .catch((error: unknown) => this.services.logger.error({ err: error }, 'notification delivery failed'))
      .finally(() => {
        this.round = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        } else this.arm();
      });
  }

  /** Stops; a round under way finishes first (before the database closes). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.services.notifications.onChange = undefined;
    clearTimeout(this.timer);
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

  private async deliverDue(): Promise<void> {
    const { notifications, clock } = this.services;
    for (const job of notifications.pendingJobs()) {
      if (this.stopped) return;
      const key = `push:${job.id}`;
      if (this.waiting(key, clock.now())) continue;
      this.settle(key, await deliverPushJob(this.services, job), { job: job.id, user: job.userId });
    }
    for (const { userId, dueAt } of notifications.batches()) {
      if (this.stopped) return;
      const key = `mail:${userId}`;
      if (dueAt * 1000 > clock.now() || this.waiting(key, clock.now())) continue;
      this.settle(key, await deliverMailBatch(this.services, userId), { mailFor: userId });
    }
  }

  /** Sleeps until the next batch is due or the next retry. */
  private arm(): void {
    if (this.stopped) return;
    const { notifications } = this.services;
    const times: number[] = [];
    for (const job of notifications.pendingJobs()) times.push(this.backoff.get(`push:${job.id}`)?.at ?? 0);
    for (const { userId, dueAt } of notifications.batches()) times.push(Math.max(dueAt * 1000, this.backoff.get(`mail:${userId}`)?.at ?? 0));
    if (times.length === 0) return;
    const delay = Math.max(0, Math.min(...times) - this.services.clock.now());
    // Whole seconds matter for batches; a short floor keeps a failing loop from spinning.
    this.timer = setTimeout(() => this.wake(), Math.min(Math.max(delay, 50), 2 ** 31 - 1));
    this.timer.unref();
  }
}
