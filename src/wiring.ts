/**
 * Builds the services of one organization from an open database: actors restored, the
 * subscription index derived, the message store and the Markdown renderer bound to the
 * organization's names (queries/markdown-context.ts). Used by the server and the admin CLI.
 */
import type { Logger } from 'pino';
import { ActorRegistry } from './actors/registry.js';
import { ActorSnapshots } from './store/actor-snapshots.js';
import { SubscriptionBook } from './actors/subscription-book.js';
import { subscriptionsKind } from './actors/subscriptions.js';
import { draftsKind } from './actors/drafts.js';
import { navigationViewsKind } from './actors/navigation-views.js';
import { savedSnippetsKind } from './actors/saved-snippets.js';
import { pushDevicesKind } from './actors/push-devices.js';
import { reconcileGroupStates, userGroupKind } from './actors/user-group.js';
import type { Config } from './config.js';
import { markdownRenderer } from './queries/markdown-context.js';
import type { Clock, Services } from './services.js';
import type { Counters } from './store/counters.js';
import type { Database } from './store/database.js';
import { MessageStore } from './store/messages.js';
import { ReadMarks } from './store/read-marks.js';
import type { Organization } from './store/organization.js';
import type { Transaction } from './store/transaction.js';
import { EventQueues } from './events/queues.js';
import { EventPublisher } from './events/publisher.js';
import { PresenceBook } from './store/presence-book.js';
import { LIMITS } from './domain/versions.js';
import { runWrite } from './store/write.js';
import { EventLog } from './store/event-log.js';
import { cutOverToReadMarks } from './actions/read-state-cut-over.js';
import { ScheduledMessages } from './store/scheduled-messages.js';
import { Scheduler } from './actors/scheduler.js';
import { Invitations } from './store/invitations.js';
import { Outbox } from './store/outbox.js';
import { smtpTransport } from './ops/smtp.js';
import { AttentionIndex } from './store/attention-index.js';
import { Attachments } from './store/attachments.js';
import { FileStore, uploadsDir } from './store/files.js';
import type { FileReplicas } from './store/file-replica.js';
import { Thumbnailer } from './store/thumbnails.js';
import { TemporaryAccess } from './store/temporary-access.js';
import { RealmEmojiBook } from './store/realm-emoji.js';
import { SearchIndex, searchIndexDir } from './store/search-index.js';
import { BackgroundJobs } from './shared/background-jobs.js';
import { NotificationOutbox } from './store/notification-outbox.js';
import { ReadCaches } from './store/read-caches.js';

export interface ServiceParts {
  config: Config;
  logger: Logger;
  db: Database;
  counters: Counters;
  org: Organization;
  clock: Clock;
  /** Cluster mode: where uploaded bytes are replicated (unset on the embedded server). */
  fileReplicas?: FileReplicas;
}

/** The organization's actors, restored from their snapshots, with the group records reconciled. */
async function restoreActors(db: Database, org: Organization, logger: Logger): Promise<ActorRegistry> {
  const actors = new ActorRegistry(
    new ActorSnapshots(db, org.id),
    (kind, id, error) => logger.error({ err: error, kind, id }, 'actor failed'),
  );
  actors.register(subscriptionsKind);
  // Personal records, one actor per user and kind (actors/personal-records.ts).
  actors.register(draftsKind);
  actors.register(navigationViewsKind);
  actors.register(savedSnippetsKind);
  actors.register(pushDevicesKind);
  actors.register(userGroupKind);
  await actors.restore();
  reconcileGroupStates(actors, org.groups, (groupId) => logger.warn({ groupId }, 'user group record disagreed with its actor; the actor wins'));
  return actors;
}

export async function buildServices(parts: ServiceParts): Promise<Services> {
  const { db, org, logger } = parts;
  const actors = await restoreActors(db, org, logger);
  const subscriptions = new SubscriptionBook(actors, () => parts.counters.upcomingServerId('message'));
  subscriptions.rebuildIndex();
  const messages = new MessageStore(db, org.id);
  const readMarks = new ReadMarks(db, org.id);
  await readMarks.load();
  const scheduled = new ScheduledMessages(org.id);
  await scheduled.load(db);
  const invitations = new Invitations(org.id);
  await invitations.load(db);
  const attachments = new Attachments(org.id);
  await attachments.load(db);
  const files = new FileStore(uploadsDir(parts.config.dataDir, org.id, org.realm.subdomain), parts.fileReplicas?.(org.id));
  const realmEmoji = new RealmEmojiBook(org.id);
  await realmEmoji.load(db);
  const notifications = new NotificationOutbox(db, parts.counters, org.id);
  await notifications.load();
  const clock = parts.clock;
  const eventLog = new EventLog(db, org.id);
  const queues = new EventQueues(eventLog, parts.counters, {
    heartbeatMs: parts.config.heartbeatSeconds * 1000,
    idleMs: parts.config.queueIdleSeconds * 1000,
    maxLifespanMs: LIMITS.maxQueueLifespanSeconds * 1000,
    maxEvents: parts.config.queueMaxEvents,
  }, () => clock.now());
  const publisher = new EventPublisher(db, eventLog, queues, (event) => {
    const message = event.message as { type?: string; stream_id?: number };
    const channel = message.type === 'stream' ? org.channels.get(message.stream_id!) : undefined;
    return channel !== undefined && !channel.inviteOnly;
  });
  const commit = (tx: Transaction) => publisher.commit(tx);
  const services: Services = {
    config: parts.config,
    logger,
    db,
    counters: parts.counters,
    org,
    actors,
    clock,
    subscriptions,
    messages,
    readMarks,
    queues,
    presence: new PresenceBook(),
    scheduled,
    // Delivers nothing until server.ts runs it (the admin CLI builds services too).
    scheduler: new Scheduler(() => clock.now()),
    invitations,
    outbox: new Outbox(db, parts.counters, org.id),
    smtp: parts.config.smtp ? smtpTransport(parts.config.smtp) : undefined,
    attention: new AttentionIndex(org.users),
    attachments,
    files,
    thumbnails: new Thumbnailer(files, logger),
    temporaryAccess: new TemporaryAccess(),
    realmEmoji,
    background: new BackgroundJobs(),
    search: SearchIndex.open(searchIndexDir(parts.config.dataDir), db, messages, org.id, (error) => logger.error({ err: error }, 'search index failed')),
    notifications,
    readCaches: new ReadCaches(),
    startedAt: Math.floor(clock.now() / 1000),
    render: markdownRenderer(org, subscriptions, attachments, realmEmoji),
    write: (change) => runWrite(commit, change),
    commit,
  };
  await cutOverToReadMarks(services);
  return services;
}
