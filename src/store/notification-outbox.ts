/**
 * The durable outbox of notifications: mobile pushes decided and not yet accepted by the bouncer,
 * messages waiting for a user's missed-message email batch, the pushes standing on users' devices
 * (to send `remove` when read), and the secret of unsubscribe links. Held in memory (all of it is
 * pending work, small) and written in the same batches as the changes that decide it, so a
 * notification decided before a crash is found again at start.
 */
import { randomBytes } from 'node:crypto';
import type { Counters } from './counters.js';
import { WakeIndex } from './wake-index.js';
import type { Database } from './database.js';
import { prefixRange, realmKeys, type RealmKeys } from './keys.js';
import { RecordBook } from './record-book.js';
import type { Transaction } from './transaction.js';
import type { UserDirectory } from './users.js';
import { settingOn } from '../domain/user-settings.js';

/** A push to send: a message's notification, or the removal of read messages' notifications. */
export type PushJob =
  | { id: number; kind: 'message'; userId: number; messageId: number; trigger: string; mentionedGroupId?: number }
  | { id: number; kind: 'remove'; userId: number; messageIds: number[] };

export type NewPushJob = PushJob extends infer J ? (J extends PushJob ? Omit<J, 'id'> : never) : never;

/**
 * What a message would have notified an idle user of, kept while the user was active (Zulip's
 * `internal_data` on the queued message event): notified after all if the user's last queue goes.
 */
export interface HeldNotification {
  /** Set only when no push was sent at once (online pushes off). */
  push?: string;
  email?: string;
  mentionedGroupId?: number;
}

/** Held notifications kept per user at most (the oldest go first): a queue holds no more events than this matters for. */
const MAX_HELD_PER_USER = 1000;

/** A message waiting for the user's email batch, due at `dueAt` (unix seconds). */
export interface MissedMail {
  userId: number;
  messageId: number;
  trigger: string;
  mentionedGroupId?: number;
  dueAt: number;
}

export class NotificationOutbox {
  private readonly keys: RealmKeys;
  private readonly jobs: RecordBook<number, PushJob>;
  private readonly mail = new Map<number, Map<number, MissedMail>>();
  private readonly active = new Map<number, Set<number>>();
  /** Held notifications by user and message (memory only, like the queues' events they stand for). */
  private readonly held = new Map<number, Map<number, HeldNotification>>();
  /** The same standing pushes by message: who to tell when a message is deleted. */
  private readonly activeByMessage = new Map<number, Set<number>>();
  private secretValue = '';
  private notifiersVersion = -1;
  private notifiers: number[] = [];
  /** What the bouncer last said of this organization (remotes/server/analytics); null: not asked yet. */
  pushStatus: { canPush: boolean; expectedEndTimestamp: number | null } | null = null;
  /** Decisions made in this event-loop turn, written together at its end (actions/notification-decision.ts). */
  readonly unwritten: { jobs: NewPushJob[]; mails: Omit<MissedMail, 'dueAt'>[] } = { jobs: [], mails: [] };
  /** Called once a batch that added work is durable (the deliverer wakes). */
  onChange: (() => void) | undefined;

  constructor(
    private readonly db: Database,
    private readonly counters: Counters,
    private readonly realmId: number,
  ) {
    this.keys = realmKeys(realmId);
    const keys = this.keys;
    this.jobs = new RecordBook({ prefix: keys.pushJobPrefix, key: (job) => keys.pushJob(job.id), id: (job) => job.id });
  }

  /** Whether a push or a missed-message email waits to be delivered. */
  get waiting(): boolean {
    if (this.jobs.size > 0) return true;
    for (const items of this.mail.values()) if (items.size > 0) return true;
    return false;
  }

  /** Reads every pending job, batch and standing push (start-up). */
  async load(): Promise<void> {
    await this.jobs.load(this.db);
    for await (const [, item] of this.db.scan<MissedMail>(prefixRange(this.keys.missedMailPrefix))) this.mailOf(item.userId).set(item.messageId, item);
    for await (const key of this.db.scanKeys(prefixRange(this.keys.activePushPrefix))) {
      const [, userId, messageId] = key.slice(this.keys.activePushPrefix.length - 1).split('!');
      this.activeOf(Number(userId)).add(Number(messageId));
      this.holdersOf(Number(messageId)).add(Number(userId));
    }
    this.secretValue = this.db.get<string>(this.keys.notificationSecret) ?? '';
  }

  /** The secret of unsubscribe links, made (in `tx`) the first time it is asked for. */
  secret(tx?: Transaction): string {
    if (this.secretValue === '' && tx) {
      this.secretValue = randomBytes(32).toString('base64url');
      const made = this.secretValue;
      tx.onRollback(() => {
        if (this.secretValue === made) this.secretValue = '';
      });
      tx.put(this.keys.notificationSecret, made);
    }
    return this.secretValue;
  }

  /**
   * Active people whose global settings turn on push or email notifications for every channel
   * (both off by default): derived from the users, rebuilt only when a user changed.
   */
  streamNotifiers(users: UserDirectory): readonly number[] {
    if (this.notifiersVersion !== users.version) {
      this.notifiersVersion = users.version;
      this.notifiers = [];
      for (const user of users.all()) {
        if (!user.isActive || user.isBot) continue;
        if (settingOn(user, 'enable_stream_push_notifications') || settingOn(user, 'enable_stream_email_notifications')) this.notifiers.push(user.id);
      }
    }
    return this.notifiers;
  }

  /** Tells delivery after the commit; the organization wakes after a restart (store/wake-index.ts). */
  private changed(tx: Transaction): void {
    WakeIndex.mark(this.realmId, tx);
    tx.afterCommit.push(() => this.onChange?.());
  }

  addJob(job: NewPushJob, tx: Transaction): PushJob {
    const stored = { ...job, id: this.counters.nextRealmId(this.realmId, 'push_job', tx) } as PushJob;
    this.jobs.save(stored, tx);
    this.changed(tx);
    return stored;
  }

  dropJob(id: number, tx: Transaction): void {
    this.jobs.delete(id, tx);
  }

  job(id: number): PushJob | undefined {
    return this.jobs.get(id);
  }

  /** Pending pushes, oldest first (a copy: for tests and small lists; delivery walks `jobsInOrder`). */
  pendingJobs(): PushJob[] {
    return [...this.jobs.all()];
  }

  /**
   * Pending pushes, oldest first, without copying: ids only grow and the load reads them in key
   * (numeric) order, so the map's insertion order is id order.
   */
  jobsInOrder(): IterableIterator<PushJob> {
    return this.jobs.all();
  }

  get jobCount(): number {
    return this.jobs.size;
  }

  /** The due time of the user's open batch, if one is waiting. */
  batchDueAt(userId: number): number | undefined {
    const first = this.mail.get(userId)?.values().next();
    return first && !first.done ? first.value.dueAt : undefined;
  }

  addMissedMail(item: MissedMail, tx: Transaction): void {
    const items = this.mailOf(item.userId);
    if (items.has(item.messageId)) return;
    items.set(item.messageId, item);
    tx.onRollback(() => items.delete(item.messageId));
    tx.put(this.keys.missedMail(item.userId, item.messageId), item);
    this.changed(tx);
  }

  /**
   * The user's waiting batch, in message order; with `limit`, only its oldest `limit` messages
   * (taken in insertion order, which is message order, without sorting the rest).
   */
  missedMailOf(userId: number, limit = Infinity): MissedMail[] {
    const taken: MissedMail[] = [];
    for (const item of this.mail.get(userId)?.values() ?? []) {
      if (taken.length >= limit) break;
      taken.push(item);
    }
    return taken.sort((a, b) => a.messageId - b.messageId);
  }

  /** How many messages wait in the user's batch. */
  missedMailSize(userId: number): number {
    return this.mail.get(userId)?.size ?? 0;
  }

  /** Puts the user's batch last in `batchUsers` (memory order only: the delivery's round robin). */
  requeueBatch(userId: number): void {
    const items = this.mail.get(userId);
    if (!items) return;
    this.mail.delete(userId);
    this.mail.set(userId, items);
  }

  /** Every user with a waiting batch (no copy). */
  batchUsers(): IterableIterator<number> {
    return this.mail.keys();
  }

  dropMissedMail(userId: number, messageIds: readonly number[], tx: Transaction): void {
    const items = this.mail.get(userId);
    if (!items) return;
    for (const messageId of messageIds) {
      const item = items.get(messageId);
      if (!item) continue;
      items.delete(messageId);
      tx.onRollback(() => this.mailOf(userId).set(messageId, item));
      tx.del(this.keys.missedMail(userId, messageId));
    }
    if (items.size === 0) this.mail.delete(userId);
  }

  /** Messages whose push stands on the user's devices. */
  activePushes(userId: number): ReadonlySet<number> {
    return this.active.get(userId) ?? new Set();
  }

  /** The users on whose devices a push of the message stands. */
  activePushHolders(messageId: number): ReadonlySet<number> {
    return this.activeByMessage.get(messageId) ?? new Set();
  }

  setActivePush(userId: number, messageId: number, on: boolean, tx: Transaction): void {
    const set = this.activeOf(userId);
    if (set.has(messageId) === on) return;
    const flip = (value: boolean) => {
      const holders = this.holdersOf(messageId);
      if (value) {
        set.add(messageId);
        holders.add(userId);
      } else {
        set.delete(messageId);
        holders.delete(userId);
        if (holders.size === 0) this.activeByMessage.delete(messageId);
      }
    };
    flip(on);
    tx.onRollback(() => flip(!on));
    if (on) tx.put(this.keys.activePush(userId, messageId), 1);
    else tx.del(this.keys.activePush(userId, messageId));
  }

  private mailOf(userId: number): Map<number, MissedMail> {
    let items = this.mail.get(userId);
    if (!items) this.mail.set(userId, (items = new Map()));
    return items;
  }

  /** Keeps what a message would have notified the (active) user of, had they been idle. */
  holdBack(userId: number, messageId: number, what: HeldNotification): void {
    let mine = this.held.get(userId);
    if (!mine) this.held.set(userId, (mine = new Map()));
    mine.set(messageId, what);
    if (mine.size > MAX_HELD_PER_USER) mine.delete(mine.keys().next().value!);
  }

  /** The user's held notifications, forgotten here (their last queue is gone). */
  takeHeldBack(userId: number): ReadonlyMap<number, HeldNotification> | undefined {
    const mine = this.held.get(userId);
    this.held.delete(userId);
    return mine;
  }

  private holdersOf(messageId: number): Set<number> {
    let set = this.activeByMessage.get(messageId);
    if (!set) this.activeByMessage.set(messageId, (set = new Set()));
    return set;
  }

  private activeOf(userId: number): Set<number> {
    let set = this.active.get(userId);
    if (!set) this.active.set(userId, (set = new Set()));
    return set;
  }
}
