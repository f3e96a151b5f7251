/**
 * `POST /streams/{stream_id}/delete_topic` (Zulip's delete_in_topic): the messages of a topic
 * the administrator may read, newest first, in batches of one write each, so that a topic too
 * big for one request is deleted over several (`complete: false` asks the client to repeat);
 * then the topic's visibility policies of those left with nothing of it are reset.
 */
import { requireAdministrator } from '../domain/channel-admin.js';
import type { ChannelRecord } from '../domain/channel-record.js';
import { badRequest } from '../domain/errors.js';
import type { MessageRecord } from '../domain/messages.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../domain/realm.js';
import { topicKey } from '../domain/topics.js';
import type { UserRecord } from '../domain/users.js';
import { accessChannelById } from '../queries/channel-access.js';
import { accessMessage } from '../queries/message-access.js';
import { messageAudience } from '../queries/message-audience.js';
import { messageFlags } from '../queries/message-state.js';
import type { Services } from '../services.js';
import type { Transaction } from '../store/transaction.js';
import { emitUpdate } from './channel-events.js';
import { dropMessage } from './message-delete.js';
import { removeDeletedPushes } from './notification-removal.js';
import { setTopicPolicy } from './user-topics.js';

/** Messages per write (Zulip's retention batch size). */
export const TOPIC_DELETION_BATCH = 1000;
/** After this long the request answers `complete: false` (Zulip gives up after 50 seconds). */
const TIME_BUDGET_MS = 50_000;

/** The newest `limit` messages of the topic the user may read, newest first. */
async function newestReadable(services: Services, user: UserRecord, channel: ChannelRecord, topic: string, limit: number): Promise<MessageRecord[]> {
  const found: MessageRecord[] = [];
  for await (const id of services.messages.ids({ of: 'topic', channelId: channel.id, topicKey: topicKey(topic) }, { reverse: true })) {
    const record = services.messages.get(id);
    if (record && accessMessage(services, user, record) !== undefined) found.push(record);
    if (found.length >= limit) break;
  }
  return found;
}

/** Deletes one batch (all of one topic) with its `delete_message` events: one for queues that take bulk deletions, one per message for the others. */
function deleteBatch(services: Services, tx: Transaction, channel: ChannelRecord, topic: string, batch: readonly MessageRecord[], newestLeft: number | undefined, firstLeft: number | null): void {
  const { messages } = services;
  const key = topicKey(topic);
  const everyoneTold = new Set<number>();
  for (const record of [...batch].sort((a, b) => a.id - b.id)) {
    const audience = messageAudience(services, record);
    for (const id of audience) everyoneTold.add(id);
    dropMessage(services, tx, record, key);
    tx.emit({ type: 'delete_message', message_id: record.id, message_type: 'stream', stream_id: channel.id, topic, for_bulk_message_deletion: false }, audience);
  }
  const ids = batch.map((record) => record.id).sort((a, b) => a - b);
  removeDeletedPushes(services, tx, ids);
  tx.emit({ type: 'delete_message', message_ids: ids, message_type: 'stream', stream_id: channel.id, topic, for_bulk_message_deletion: true }, [...everyoneTold]);
  const stored = messages.topic(channel.id, key, tx);
  if (stored) messages.saveTopic(channel.id, key, newestLeft === undefined ? undefined : { ...stored, maxId: newestLeft }, tx);
  if (channel.firstMessageId !== null && ids.includes(channel.firstMessageId)) {
    const updated = { ...channel, firstMessageId: firstLeft };
    services.org.channels.save(updated, tx);
    emitUpdate(services, tx, updated, 'first_message_id', firstLeft);
  }
}

/** The channel's oldest message not in `gone`, or null. */
async function oldestExcept(services: Services, channelId: number, gone: ReadonlySet<number>): Promise<number | null> {
  for await (const id of services.messages.ids({ of: 'channel', channelId }, { reverse: false })) if (!gone.has(id)) return id;
  return null;
}

/** Resets the topic's visibility policies of users who can no longer read any of its messages. */
async function resetPolicies(services: Services, channel: ChannelRecord, topic: string): Promise<void> {
  const holders = [...services.org.users.all()].filter((user) => services.subscriptions.topicsOf(user.id).some((t) => t.channelId === channel.id && topicKey(t.topic) === topicKey(topic)));
  if (holders.length === 0) return;
  const left: MessageRecord[] = [];
  for await (const id of services.messages.ids({ of: 'topic', channelId: channel.id, topicKey: topicKey(topic) }, { reverse: false })) {
    const record = services.messages.get(id);
    if (record) left.push(record);
  }
  const stale = channel.historyPublicToSubscribers ? holders : holders.filter((user) => !left.some((record) => messageFlags(services, user.id, record) !== undefined));
  if (stale.length === 0) return;
  await services.write((tx) => {
    for (const user of stale) {
      const stored = services.subscriptions.topicsOf(user.id).find((t) => t.channelId === channel.id && topicKey(t.topic) === topicKey(topic));
      if (stored) setTopicPolicy(services, tx, user.id, channel.id, stored.topic, 0);
    }
  });
}

export async function deleteTopic(services: Services, actor: UserRecord, channelId: number, topicName: string): Promise<{ complete: boolean }> {
  requireAdministrator(actor.role);
  const channel = accessChannelById(services, actor, channelId);
  if (channel.isArchived) throw badRequest('Invalid channel ID');
  const topic = topicName === EMPTY_TOPIC_DISPLAY_NAME ? '' : topicName;
  const started = performance.now();
  for (;;) {
    if (performance.now() >= started + TIME_BUDGET_MS) return { complete: false };
    const batch = await newestReadable(services, actor, channel, topic, TOPIC_DELETION_BATCH);
    if (batch.length === 0) break;
    const gone = new Set(batch.map((record) => record.id));
    const newestLeft = await services.messages.newest({ of: 'topic', channelId: channel.id, topicKey: topicKey(topic) }, gone);
    const firstLeft = await oldestExcept(services, channel.id, gone);
    await services.write((tx) => {
      const current = services.org.channels.get(channel.id)!;
      const still = batch.filter((record) => services.messages.get(record.id));
      if (still.length > 0) deleteBatch(services, tx, current, topic, still, newestLeft, firstLeft);
    });
  }
  await resetPolicies(services, channel, topic);
  return { complete: true };
}
