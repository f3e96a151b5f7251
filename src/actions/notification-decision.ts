/**
 * Deciding, once a message is durable, who gets a mobile push and who a missed-message email
 * (Zulip's process_message_event and maybe_enqueue_notifications), and writing the decisions to
 * the notification outbox in one batch; actions/notification-delivery.ts sends them. The work is
 * the users who may be notified (direct recipients, those mentioned, followers of the topic,
 * users with channel notifications on), never every subscriber of the channel.
 */
import { groupMembers } from '../domain/groups.js';
import { Flag, type MessageRecord } from '../domain/messages.js';
import {
  batchDueAt,
  batchingPeriodSeconds,
  decideNotifications,
  isIdle,
  mentionedGroupFor,
  notifiableWhenIdle,
  queueAcceptsMessages,
  type ChannelFacts,
  type NotificationDecision,
  type RecipientFacts,
} from '../domain/notification-rules.js';
import type { UserRecord } from '../domain/users.js';
import { pushDeviceBook } from '../queries/push-devices.js';
import { unixSeconds, type Services } from '../services.js';
import type { NewPushJob, MissedMail } from '../store/notification-outbox.js';

/** What the send path hands over: the message, the flags of the users it wrote rows for, its mentions. */
export interface SentMessage {
  record: MessageRecord;
  /** Flags by user: every participant of a direct message; those mentioned (or alerted) in a channel. */
  flags: ReadonlyMap<number, number>;
  mentionedUserIds: ReadonlySet<number>;
  mentionedGroupIds: ReadonlySet<number>;
  /** A channel message's topic key. */
  topicKey?: string;
  /** An edit that newly mentions the users in `flags`: who edited it (never notified), and only mentions count. */
  edit?: { editorId: number };
}

/** The users who may be notified of a channel message beyond mentions, among its subscribers. */
function channelCandidates(services: Services, sent: SentMessage): Set<number> {
  const { record } = sent;
  const channelId = record.channelId!;
  const candidates = new Set(sent.flags.keys());
  const subscribed = (userId: number) => services.subscriptions.isSubscribed(userId, channelId);
  for (const userId of services.notifications.streamNotifiers(services.org.users)) if (subscribed(userId)) candidates.add(userId);
  for (const userId of services.subscriptions.notifyingOf(channelId)) if (subscribed(userId)) candidates.add(userId);
  for (const userId of services.subscriptions.followersOf(channelId, sent.topicKey!)) if (subscribed(userId)) candidates.add(userId);
  return candidates;
}

function channelFacts(services: Services, userId: number, sent: SentMessage): ChannelFacts | undefined {
  if (sent.record.type !== 'stream') return undefined;
  const subscription = services.subscriptions.subscription(userId, sent.record.channelId!);
  return {
    muted: subscription?.isMuted ?? false,
    policy: services.subscriptions.topicPolicy(userId, sent.record.channelId!, sent.topicKey!),
    push: subscription?.pushNotifications ?? null,
    email: subscription?.emailNotifications ?? null,
    wildcardMentionsNotify: subscription?.wildcardMentionsNotify ?? null,
  };
}

function recipientFacts(services: Services, user: UserRecord, sent: SentMessage): RecipientFacts {
  const flags = sent.flags.get(user.id) ?? 0;
  return {
    user,
    senderId: sent.edit?.editorId ?? sent.record.senderId,
    mentionsOnly: sent.edit !== undefined,
    direct: sent.record.type === 'private',
    mentioned: (flags & Flag.mentioned) !== 0,
    streamWildcardMentioned: (flags & Flag.stream_wildcard_mentioned) !== 0,
    topicWildcardMentioned: (flags & Flag.topic_wildcard_mentioned) !== 0,
    senderMuted: services.attention.mutersOf(sent.record.senderId).has(user.id),
    channel: channelFacts(services, user.id, sent),
  };
}

/** Zulip's idle check for one user, now. */
export function userIsIdle(services: Services, userId: number): boolean {
  let hasMessageQueue = false;
  for (const queue of services.queues.queuesOf(userId)) if (queueAcceptsMessages(queue.descriptor.eventTypes)) hasMessageQueue = true;
  return isIdle({ hasMessageQueue, lastActive: services.presence.get(userId)?.lastActive ?? null, now: unixSeconds(services.clock) });
}

/** Whether the user has a device the bouncer can reach: a token, or an end-to-end registration it accepted. */
export function hasPushDevice(services: Services, userId: number): boolean {
  return pushDeviceBook(services).list(userId).some((record) => record.kind === 'token' || (record.kind === 'e2ee' && record.status === 'active'));
}

/** What was decided for one message: pushes to send and messages for email batches. */
export interface Decided {
  jobs: NewPushJob[];
  mails: Omit<MissedMail, 'dueAt'>[];
}

/** Decides the notifications of a durable message (synchronous: memory only). */
export function decide(services: Services, sent: SentMessage): Decided {
  const { record } = sent;
  const candidates = sent.edit ? new Set(sent.flags.keys()) : record.type === 'private' ? new Set(record.dmUserIds ?? []) : channelCandidates(services, sent);
  const groups = [...sent.mentionedGroupIds].map((id) => ({ id, members: groupMembers(id, services.org.groups) }));
  const decided: Decided = { jobs: [], mails: [] };
  const canPush = services.config.pushBouncerUrl !== undefined;
  for (const userId of candidates) {
    const user = services.org.users.get(userId);
    if (!user?.isActive) continue;
    const facts = recipientFacts(services, user, sent);
    // Most candidates are not notifiable at all; they cost no idle check (as in Zulip).
    if (!notifiableWhenIdle(facts)) continue;
    const idle = userIsIdle(services, userId);
    const decision = decideNotifications(facts, idle);
    const mentionedGroupId = facts.mentioned ? mentionedGroupFor(userId, sent.mentionedUserIds.has(userId), groups) : undefined;
    const group = mentionedGroupId === undefined ? {} : { mentionedGroupId };
    if (decision.push && canPush && hasPushDevice(services, userId)) decided.jobs.push({ kind: 'message', userId, messageId: record.id, trigger: decision.push, ...group });
    if (decision.email) decided.mails.push({ userId, messageId: record.id, trigger: decision.email, ...group });
    if (!idle && !sent.edit) holdBack(services, userId, record.id, facts, decision, group);
  }
  return decided;
}

/**
 * An active user: what the message would notify were they idle, and did not, is kept for
 * Zulip's missedmessage_hook (actions/notification-queue-gone.ts).
 */
function holdBack(services: Services, userId: number, messageId: number, facts: RecipientFacts, now: NotificationDecision, group: { mentionedGroupId?: number }): void {
  const whenIdle = decideNotifications(facts, true);
  const push = now.push === undefined ? whenIdle.push : undefined;
  if (push === undefined && whenIdle.email === undefined) return;
  services.notifications.holdBack(userId, messageId, { ...(push && { push }), ...(whenIdle.email && { email: whenIdle.email }), ...group });
}

/** Writes what was decided to the outbox, in one batch. */
export async function recordDecisions(services: Services, decided: Decided): Promise<void> {
  await services.write((tx) => {
    const now = unixSeconds(services.clock);
    for (const job of decided.jobs) services.notifications.addJob(job, tx);
    for (const mail of decided.mails) {
      const user = services.org.users.get(mail.userId)!;
      const dueAt = batchDueAt(services.notifications.batchDueAt(mail.userId), now, batchingPeriodSeconds(user));
      services.notifications.addMissedMail({ ...mail, dueAt }, tx);
    }
  });
}

/** Decides the notifications of a durable message and writes them to the outbox. */
export async function decideAfterSend(services: Services, sent: SentMessage): Promise<void> {
  const decided = decide(services, sent);
  if (decided.jobs.length > 0 || decided.mails.length > 0) await recordDecisions(services, decided);
}

/**
 * Hands a written message to the decision once its write is durable, never blocking or failing
 * the send. The decisions of one event-loop turn (a batch of many messages, many sends committed
 * together) are written in one batch.
 */
export function notifyAfterCommit(services: Services, afterCommit: (() => void)[], sent: SentMessage): void {
  afterCommit.push(() => {
    const decided = decide(services, sent);
    if (decided.jobs.length === 0 && decided.mails.length === 0) return;
    const pending = services.notifications.unwritten;
    const first = pending.jobs.length === 0 && pending.mails.length === 0;
    pending.jobs.push(...decided.jobs);
    pending.mails.push(...decided.mails);
    if (!first) return;
    setImmediate(() => {
      const batch: Decided = { jobs: pending.jobs.splice(0), mails: pending.mails.splice(0) };
      recordDecisions(services, batch).catch((error: unknown) => services.logger.error({ err: error }, 'notifications not recorded'));
    });
  });
}
