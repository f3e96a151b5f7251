/**
 * What handlers and actions are given: the store, the organization's state, the actor
 * registry, the clock and the commit pipeline. Built once in server.ts and passed in, so
 * that there is no module-level mutable state and tests can build a server in one call.
 */
import type { Logger } from 'pino';
import type { ActorRegistry } from './actors/registry.js';
import type { Config } from './config.js';
import type { Counters } from './store/counters.js';
import type { Database } from './store/database.js';
import type { Organization } from './store/organization.js';
import type { Transaction } from './store/transaction.js';
import type { UserRecord } from './domain/users.js';
import type { Write } from './store/write.js';
import type { SubscriptionBook } from './actors/subscription-book.js';
import type { MessageStore } from './store/messages.js';
import type { ReadMarks } from './store/read-marks.js';
import type { RenderedMessage } from './domain/markdown/index.js';
import type { EventQueues } from './events/queues.js';
import type { PresenceBook } from './store/presence-book.js';
import type { ScheduledMessages } from './store/scheduled-messages.js';
import type { Scheduler } from './actors/scheduler.js';
import type { Invitations } from './store/invitations.js';
import type { Outbox } from './store/outbox.js';
import type { MailTransport } from './domain/mail.js';
import type { AttentionIndex } from './store/attention-index.js';
import type { Attachments } from './store/attachments.js';
import type { FileStore } from './store/files.js';
import type { Thumbnailer } from './store/thumbnails.js';
import type { TemporaryAccess } from './store/temporary-access.js';
import type { RealmEmojiBook } from './store/realm-emoji.js';
import type { SearchIndex } from './store/search-index.js';
import type { BackgroundJobs } from './shared/background-jobs.js';
import type { NotificationOutbox } from './store/notification-outbox.js';
import type { ReadCaches } from './store/read-caches.js';

export interface Clock {
  /** Unix milliseconds. */
  now(): number;
}

export interface Services {
  readonly config: Config;
  readonly logger: Logger;
  readonly db: Database;
  readonly counters: Counters;
  readonly org: Organization;
  readonly actors: ActorRegistry;
  readonly clock: Clock;
  readonly subscriptions: SubscriptionBook;
  readonly messages: MessageStore;
  /** Read state of delivered channel messages: marks, exceptions, the cut-over id. */
  readonly readMarks: ReadMarks;
  readonly queues: EventQueues;
  readonly presence: PresenceBook;
  /** Scheduled messages and reminders waiting to be sent (or that failed). */
  readonly scheduled: ScheduledMessages;
  /** The scheduler actor: the waiting items in due order and the one timer armed to the earliest. */
  readonly scheduler: Scheduler;
  /** Email invitations and reusable invitation links. */
  readonly invitations: Invitations;
  /** Where mail goes when no SMTP server is configured. */
  readonly outbox: Outbox;
  /** The SMTP transport; undefined: mail goes to the outbox. */
  readonly smtp: MailTransport | undefined;
  /** Derived from the users: the organization's alert-word matcher and who muted whom, for sending. */
  readonly attention: AttentionIndex;
  /** Uploaded files' records (Zulip's Attachment). */
  readonly attachments: Attachments;
  /** Uploaded bytes and thumbnails on disk, content-addressed. */
  readonly files: FileStore;
  /** Makes image thumbnails off the request path. */
  readonly thumbnails: Thumbnailer;
  /** Signs and checks the short-lived URLs of `GET /user_uploads/{realm_id_str}/{filename}`. */
  readonly temporaryAccess: TemporaryAccess;
  /** The organization's custom emoji. */
  readonly realmEmoji: RealmEmojiBook;
  /** The full-text index of messages (SQLite FTS5), derived from the store. */
  readonly search: SearchIndex;
  /** Work started after a request was answered (data exports), tracked until it ends. */
  readonly background: BackgroundJobs;
  /** Mobile pushes and missed-message emails decided and not yet sent (actions/notification-delivery.ts). */
  readonly notifications: NotificationOutbox;
  /** Serialised answers of the hottest reads (message objects, the user list), kept for this organization. */
  readonly readCaches: ReadCaches;
  /** Unix seconds when the server started (Zulip's `server_generation`). */
  readonly startedAt: number;
  /** Renders Zulip Markdown with this organization's users, groups and channels. */
  /**
   * Renders Zulip Markdown. With `author`, channel links resolve only to channels the author may
   * read (as Zulip's mention lookup with its acting user), so a link never reveals a private channel.
   */
  render(content: string, author?: UserRecord): RenderedMessage;
  /**
   * The one way a request changes state: runs `change` (synchronous: validate, change memory,
   * fill the transaction), then writes it as one atomic batch with its events in the event
   * log and resolves once it is durable; then its events are delivered. If `change` throws
   * or the batch fails, every in-memory change is rolled back and nothing is written.
   */
  write: Write;
  /**
   * Commits a transaction built outside a request (start-up seeding, the admin CLI, bench
   * seeding), with the same rollback on failure. Requests use `write`.
   */
  commit(tx: Transaction): Promise<void>;
}

export const unixSeconds = (clock: Clock) => Math.floor(clock.now() / 1000);
