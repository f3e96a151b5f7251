/**
 * How one stored event looks to one queue: its per-user flags, local echo, and the options
 * and capabilities the queue registered with (Markdown or raw content, Gravatar URLs, the
 * empty topic's name, bulk deletions). Queues with the same options share one serialised
 * copy, so delivering to ten thousand queues serialises a handful of variants.
 */
import { flagList } from '../domain/messages.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../domain/realm.js';
import type { EventQueue, QueueDescriptor, QueuedEvent } from './event-queue.js';

/** A committed event with its id, as stored in the log and delivered. */
export interface LoggedEvent {
  id: number;
  event: Record<string, unknown>;
  userIds: readonly number[];
  /** Per-user flags (bitfields) as [userId, flags] pairs. */
  flags?: readonly (readonly [number, number])[];
  forQueue?: { queueId: string; fields: Record<string, unknown> };
  /** A message in a public channel: queues watching all public channels get it too. */
  publicChannel?: true;
}

/** Internal fields of message events, removed before delivery. */
export interface MessageEventInternals {
  raw_content: string;
  /** The sender's email is public, so clients may compute their Gravatar. */
  gravatar_public: boolean;
}

/** The keys handed out, so that queues with the same options hold one string (and compare by identity first). */
const KEYS = new Map<string, string>();

export function variantKey(d: Pick<QueueDescriptor, 'applyMarkdown' | 'clientGravatar' | 'capabilities' | 'slimPresence'>): string {
  const c = d.capabilities;
  const key = `${+d.applyMarkdown}${+d.clientGravatar}${+c.emptyTopicName}${+c.bulkMessageDeletion}${+!!d.slimPresence}`;
  let interned = KEYS.get(key);
  if (interned === undefined) KEYS.set(key, (interned = key));
  return interned;
}

const displayTopic = (topic: unknown, allowEmpty: boolean) => (topic === '' && !allowEmpty ? EMPTY_TOPIC_DISPLAY_NAME : topic);

/** The event as a queue with these options receives it. */
export function renderEvent(logged: LoggedEvent, d: QueueDescriptor, flags: number | undefined, extra?: Record<string, unknown>): Record<string, unknown> {
  const { event } = logged;
  const allowEmpty = d.capabilities.emptyTopicName;
  const out: Record<string, unknown> = { ...event };
  switch (event.type) {
    case 'message': {
      const internals = event.internal as MessageEventInternals;
      delete out.internal;
      const message = { ...(event.message as Record<string, unknown>) };
      if (!d.applyMarkdown) {
        message.content = internals.raw_content;
        message.content_type = 'text/x-markdown';
      }
      if (d.clientGravatar && internals.gravatar_public) message.avatar_url = null;
      if (message.type === 'stream') message.subject = displayTopic(message.subject, allowEmpty);
      out.message = message;
      out.flags = flags === undefined ? [] : flagList(flags);
      break;
    }
    case 'update_message':
      if (flags !== undefined) out.flags = flagList(flags);
      if ('subject' in out) out.subject = displayTopic(out.subject, allowEmpty);
      if ('orig_subject' in out) out.orig_subject = displayTopic(out.orig_subject, allowEmpty);
      break;
    case 'delete_message':
      delete out.for_bulk_message_deletion;
      if (d.capabilities.bulkMessageDeletion) delete out.message_id;
      else delete out.message_ids;
      if ('topic' in out) out.topic = displayTopic(out.topic, allowEmpty);
      break;
    case 'user_topic':
      out.topic_name = displayTopic(out.topic_name, allowEmpty);
      break;
    case 'typing':
      if ('topic' in out) out.topic = displayTopic(out.topic, allowEmpty);
      break;
    case 'user_group':
      delete out.for_reactivation;
      break;
    case 'stream':
      delete out.for_archived_channels;
      break;
    case 'presence':
      if (d.slimPresence) delete out.email;
      break;
  }
  if (extra) Object.assign(out, extra);
  out.id = logged.id;
  return out;
}

/** Serialises events per variant, reusing copies between queues that see the same thing. */
export class VariantCache {
  private readonly cache = new Map<string, QueuedEvent>();
  private readonly flagsByUser: Map<number, number> | undefined;
  /** The copy handed out last, and for which variant and flags. */
  private last: QueuedEvent | undefined = undefined;
  private lastVariant = '';
  private lastFlags: number | undefined = undefined;

  constructor(readonly logged: LoggedEvent) {
    this.flagsByUser = logged.flags ? new Map(logged.flags) : undefined;
  }

  flagsOf(userId: number): number | undefined {
    return this.flagsByUser?.get(userId);
  }

  /** The copy for `queue`; `recipient` false: the queue sees the message only as a public-channel watcher. */
  for(queue: EventQueue, recipient = true): QueuedEvent {
    return this.withFlags(queue, recipient ? this.flagsOf(queue.descriptor.userId) : undefined);
  }

  /**
   * The copy for `queue`, whose user's flags the caller has looked up (undefined: none). Queues
   * of a fan-out mostly come one after another with the same variant and flags: the last copy
   * is checked first, so that ten thousand queues build no key and look up no map.
   */
  withFlags(queue: EventQueue, flags: number | undefined): QueuedEvent {
    const d = queue.descriptor;
    const forQueue = this.logged.forQueue;
    if (forQueue !== undefined && forQueue.queueId === d.id) {
      return { id: this.logged.id, json: JSON.stringify(renderEvent(this.logged, d, flags, forQueue.fields)), bytes: undefined };
    }
    const last = this.last;
    if (last !== undefined && this.lastVariant === queue.variant && this.lastFlags === flags) return last;
    const key = `${queue.variant}|${flags ?? '-'}`;
    let entry = this.cache.get(key);
    if (!entry) {
      entry = { id: this.logged.id, json: JSON.stringify(renderEvent(this.logged, d, flags)), bytes: undefined };
      this.cache.set(key, entry);
    }
    this.last = entry;
    this.lastVariant = queue.variant;
    this.lastFlags = flags;
    return entry;
  }
}
