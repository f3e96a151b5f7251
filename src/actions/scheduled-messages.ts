/**
 * Scheduling, editing and deleting messages to be sent later (Zulip's send-later). A scheduled
 * message is checked by the same rules as `POST /messages` when it is scheduled or edited, and
 * again when it is delivered (actions/scheduled-delivery.ts). Each change tells the scheduler
 * actor once it is durable, so that the actor only ever waits for items that are in the store.
 */
import { keepRender, renderStamp } from '../queries/scheduled-render.js';
import { badRequest } from '../domain/errors.js';
import {
  addedEvent,
  checkDeliveryTime,
  checkRecipientIds,
  DELIVERY_TIME_IN_PAST,
  recipientOf,
  recipientType,
  removedEvent,
  updatedEvents,
  type ScheduledKind,
  type ScheduledMessageRecord,
} from '../domain/scheduled-messages.js';
import type { UserRecord } from '../domain/users.js';
import { requireScheduled } from '../queries/scheduled-messages.js';
import type { Services } from '../services.js';
import { unixSeconds } from '../services.js';
import type { Transaction } from '../store/transaction.js';
import { defaultReadBySender, prepareMessage, type OutgoingMessage, type SendRequest } from './message-send.js';
import { forgetPrepared, keepSend, sendStamp } from './scheduled-prepared.js';
import { withFields } from '../shared/with-fields.js';

export interface ScheduleRequest {
  type: string;
  to: unknown;
  content: string;
  topic?: string;
  /** Unix seconds. */
  deliverAt: number;
  readBySender?: boolean;
}

export interface ScheduleEdit {
  type?: string;
  to?: unknown;
  content?: string;
  topic?: string;
  deliverAt?: number;
}

/** Where a checked message goes, as a scheduled record keeps it (`to` as Zulip's API returns it). */
function addressOf(out: OutgoingMessage): Pick<ScheduledMessageRecord, 'type' | 'channelId' | 'topic' | 'userIds'> {
  const { destination, sender } = out;
  if (destination.type === 'stream') return { type: 'stream', channelId: destination.channel.id, topic: destination.topic };
  // Zulip's get_recipient_ids: the other person of a 1:1 (oneself alone to oneself), everyone of a group.
  const ids = [...new Set(destination.participants.map((user) => user.id))].sort((a, b) => a - b);
  const others = ids.filter((id) => id !== sender.id);
  return { type: 'private', userIds: ids.length <= 2 ? (others.length > 0 ? others : [sender.id]) : ids };
}

/** Zulip's default for a scheduled message: read by its sender when a person's client sent it, unless it is to oneself only. */
function readBySenderDefault(client: string, address: Pick<ScheduledMessageRecord, 'type' | 'userIds'>, senderId: number): boolean {
  const toSelf = address.type === 'private' && address.userIds!.length === 1 && address.userIds![0] === senderId;
  return defaultReadBySender(client) && !toSelf;
}

/** Writes a new or changed record, its owner's events and, once durable, the scheduler's entry. */
function save(services: Services, tx: Transaction, record: ScheduledMessageRecord, events: Record<string, unknown>[]): void {
  services.scheduled.save(record, tx);
  for (const event of events) tx.emit(event, [record.senderId]);
  tx.afterCommit.push(() => services.scheduler.schedule(record.id, record.deliverAt));
}

/** Removes a record that was deleted by its owner (delivery removes its own, in its own write). */
export function removeScheduled(services: Services, tx: Transaction, record: ScheduledMessageRecord): void {
  services.scheduled.delete(record.id, tx);
  tx.afterCommit.push(() => forgetPrepared(services, record.id));
  tx.emit(removedEvent(record), [record.senderId]);
  tx.afterCommit.push(() => services.scheduler.cancel(record.id));
}

/** Writes a new scheduled record of either kind; returns its id. */
export function addScheduled(services: Services, fields: Omit<ScheduledMessageRecord, 'id'>): Promise<number> {
  return services.write((tx) => {
    const id = services.counters.nextRealmId(services.org.id, 'scheduled_message', tx);
    const record: ScheduledMessageRecord = withFields(fields, { id });
    save(services, tx, record, [addedEvent(record)]);
    return id;
  });
}

/** POST /scheduled_messages */
export async function createScheduledMessage(services: Services, sender: UserRecord, client: string, request: ScheduleRequest): Promise<number> {
  const type = recipientType(request.type);
  checkRecipientIds(type, request.to);
  checkDeliveryTime(request.deliverAt, unixSeconds(services.clock));
  const stamp = renderStamp(services);
  const out = prepareMessage(services, sender, client, { type, to: request.to, content: request.content, topic: request.topic });
  // Taken in the same turn as the check, so it stamps the state the check read.
  const checked = sendStamp(services, sender, out.destination.type === 'stream' ? out.destination.channel.id : undefined);
  const address = addressOf(out);
  const kind: ScheduledKind = 'send';
  const id = await addScheduled(services, {
    kind,
    senderId: sender.id,
    ...address,
    content: out.content,
    renderedContent: out.rendered.html,
    deliverAt: request.deliverAt,
    readBySender: request.readBySender ?? readBySenderDefault(client, address, sender.id),
    client,
    failed: false,
  });
  // Rendered once: the delivery reuses it while nothing it depends on changed.
  keepRender(services, id, out.content, stamp, out.rendered);
  keepSend(services, id, out, checked);
  return id;
}

/** What a scheduled message asks `POST /messages`'s rules to send. */
export function sendRequestOf(record: ScheduledMessageRecord): SendRequest {
  return { type: record.type, to: recipientOf(record), content: record.content, topic: record.topic, readBySender: record.readBySender };
}

/** PATCH /scheduled_messages/{id}: a partial edit, checked again as a whole. */
export async function editScheduledMessage(services: Services, sender: UserRecord, client: string, id: number, edit: ScheduleEdit): Promise<void> {
  if (edit.type === undefined && edit.to === undefined && edit.topic === undefined && edit.content === undefined && edit.deliverAt === undefined) {
    throw badRequest('Nothing to change');
  }
  const newType = edit.type === undefined ? undefined : recipientType(edit.type);
  if (newType !== undefined && edit.to === undefined) throw badRequest('Recipient required when updating type of scheduled message.');
  if (newType === 'stream' && edit.topic === undefined) throw badRequest('Topic required when updating scheduled message type to channel.');
  if (edit.deliverAt !== undefined) checkDeliveryTime(edit.deliverAt, unixSeconds(services.clock));
  const record = requireScheduled(services, sender, id, 'send');
  // One that failed is sent again only at a new time.
  if (record.failed && edit.deliverAt === undefined) throw badRequest(DELIVERY_TIME_IN_PAST);
  const type = newType ?? record.type;
  const request: SendRequest = { ...sendRequestOf(record), type };
  if (edit.to !== undefined) {
    checkRecipientIds(type, edit.to);
    request.to = edit.to;
  }
  if (edit.topic !== undefined) request.topic = edit.topic;
  if (edit.content !== undefined) request.content = edit.content;
  const stamp = renderStamp(services);
  const out = prepareMessage(services, sender, client, request);
  await services.write((tx) => {
    // Sent or deleted while this edit was checked: the record is gone.
    const current = requireScheduled(services, sender, id, 'send');
    const next: ScheduledMessageRecord = {
      id: current.id,
      kind: current.kind,
      senderId: current.senderId,
      ...addressOf(out),
      content: out.content,
      renderedContent: out.rendered.html,
      deliverAt: edit.deliverAt ?? current.deliverAt,
      readBySender: current.readBySender,
      // The message is sent as from the client that last edited it, as Zulip does.
      client,
      failed: false,
    };
    save(services, tx, next, updatedEvents(next));
    tx.afterCommit.push(() => keepRender(services, id, out.content, stamp, out.rendered));
  });
}

/** DELETE /scheduled_messages/{id} */
export async function deleteScheduledMessage(services: Services, sender: UserRecord, id: number): Promise<void> {
  await services.write((tx) => removeScheduled(services, tx, requireScheduled(services, sender, id, 'send')));
}
