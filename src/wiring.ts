/**
 * Builds the services of one organization from an open database: actors restored, the
 * subscription index derived, the message store and the Markdown renderer bound to the
 * organization's names. Used by the server and the admin CLI.
 */
import { compiledLinkifiers } from './domain/linkifiers.js';
import { canAccessContent, type ChannelRecord } from './domain/channel-record.js';
import type { UserRecord } from './domain/users.js';
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
import { renderMarkdown, type MarkdownContext } from './domain/markdown/index.js';
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
import { FileStore } from './store/files.js';
import { Thumbnailer } from './store/thumbnails.js';
import { TemporaryAccess } from './store/temporary-access.js';
import { join } from 'node:path';
import { RealmEmojiBook } from './store/realm-emoji.js';
import { emojiUrl } from './domain/realm-emoji.js';

export interface ServiceParts {
  config: Config;
  logger: Logger;
  db: Database;
  counters: Counters;
  org: Organization;
  clock: Clock;
}

/**
 * Names the renderer can resolve: active users, active groups, channels. `readable` narrows the
 * channels to those the message's author may read, when there is an author.
 */
export function markdownContext(org: Organization, readable: (channel: ChannelRecord) => boolean = () => true): MarkdownContext {
  const byName = new Map<string, { id: number; fullName: string }[]>();
  let builtAt = -1;
  const usersByName = (name: string) => {
    // Rebuilt only when users changed since the last message.
    if (builtAt !== org.users.version) {
      byName.clear();
      for (const user of org.users.all()) {
        if (!user.isActive) continue;
        const key = user.fullName.toLowerCase();
        const list = byName.get(key);
        if (list) list.push({ id: user.id, fullName: user.fullName });
        else byName.set(key, [{ id: user.id, fullName: user.fullName }]);
      }
      builtAt = org.users.version;
    }
    return byName.get(name.toLowerCase()) ?? [];
  };
  return {
    userByName: usersByName,
    userById: (id) => {
      const user = org.users.get(id);
      return user?.isActive ? { id: user.id, fullName: user.fullName } : undefined;
    },
    groupByName: (name) => {
      const group = org.groups.byGroupName(name);
      return group && !group.deactivated && !group.isSystemGroup ? { id: group.id, name: group.name } : undefined;
    },
    channelByName: (name) => {
      const channel = org.channels.byName(name);
      return channel && readable(channel) ? { id: channel.id, name: channel.name } : undefined;
    },
  };
}

export async function buildServices(parts: ServiceParts): Promise<Services> {
  const { db, org, logger } = parts;
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
  const subscriptions = new SubscriptionBook(actors, () => parts.counters.upcomingServerId('message'));
  subscriptions.rebuildIndex();
  // The author of the message being rendered; rendering is synchronous, so one slot serves.
  let author: UserRecord | undefined;
  const messages = new MessageStore(db, org.id);
  const readMarks = new ReadMarks(db, org.id);
  await readMarks.load();
  const scheduled = new ScheduledMessages(db, org.id);
  await scheduled.load();
  const invitations = new Invitations(db, org.id);
  await invitations.load();
  const attachments = new Attachments(db, org.id);
  await attachments.load();
  const files = new FileStore(join(parts.config.dataDir, 'uploads'));
  const realmEmoji = new RealmEmojiBook(db, org.id);
  await realmEmoji.load();
  const context: MarkdownContext = {
    ...markdownContext(org, (channel) => author === undefined || canAccessContent(author, channel, subscriptions.isSubscribed(author.id, channel.id))),
    uploadPreview: (pathId) => attachments.byPathId(pathId)?.image,
    linkifiers: () => compiledLinkifiers(org.realm.linkifiers),
    realmEmoji: (name) => {
      const emoji = realmEmoji.activeByName(name);
      return emoji && { id: String(emoji.id), name: emoji.name, url: emojiUrl(org.id, emoji.fileName) };
    },
  };
  const clock = parts.clock;
  const eventLog = new EventLog(db, org.id);
  const queues = new EventQueues(eventLog, parts.counters, {
    heartbeatMs: parts.config.heartbeatSeconds * 1000,
    idleMs: parts.config.queueIdleSeconds * 1000,
    maxLifespanMs: LIMITS.maxQueueLifespanSeconds * 1000,
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
    startedAt: Math.floor(clock.now() / 1000),
    render: (content, by) => {
      author = by;
      try {
        return renderMarkdown(content, context);
      } finally {
        author = undefined;
      }
    },
    write: (change) => runWrite(commit, change),
    commit,
  };
  await cutOverToReadMarks(services);
  return services;
}
