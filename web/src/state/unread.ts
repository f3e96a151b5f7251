/**
 * Unread counts: per channel, per topic, per direct message conversation, and mentions; seeded by
 * `unread_msgs` from POST /register and kept by message, flag and deletion events.
 */
import { dmKey, dmUserIds, type Message } from './types.js';

type Place = { kind: 'channel'; streamId: number; topic: string } | { kind: 'dm'; key: string };

export interface UnreadSeed {
  streams: { stream_id: number; topic: string; unread_message_ids: number[] }[];
  pms: { other_user_id?: number; sender_id?: number; unread_message_ids: number[] }[];
  huddles: { user_ids_string: string; unread_message_ids: number[] }[];
  mentions: number[];
}

export const MENTION_FLAGS = ['mentioned', 'wildcard_mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned'];

let made = 0;

export class Unread {
  private readonly places = new Map<number, Place>();
  private readonly mentions = new Set<number>();
  /** Which set this is, and how many changes it has had: what cached counts are keyed on. */
  readonly id = ++made;
  private changes = 0;

  get version(): number {
    return this.changes;
  }

  constructor(private readonly selfId: number, seed?: UnreadSeed) {
    if (!seed) return;
    for (const s of seed.streams) for (const id of s.unread_message_ids) this.places.set(id, { kind: 'channel', streamId: s.stream_id, topic: s.topic });
    for (const p of seed.pms) {
      const other = p.other_user_id ?? p.sender_id ?? selfId;
      for (const id of p.unread_message_ids) this.places.set(id, { kind: 'dm', key: dmKey([other]) });
    }
    for (const h of seed.huddles) {
      const key = dmKey(h.user_ids_string.split(',').map(Number).filter((u) => u !== selfId));
      for (const id of h.unread_message_ids) this.places.set(id, { kind: 'dm', key });
    }
    for (const id of seed.mentions) if (this.places.has(id)) this.mentions.add(id);
  }

  /** A new message (or one whose `read` flag was removed): unread unless its flags say read. */
  add(message: Message, flags: readonly string[]): void {
    if (flags.includes('read')) return;
    this.changes++;
    this.places.set(
      message.id,
      message.type === 'stream'
        ? { kind: 'channel', streamId: message.stream_id!, topic: message.subject }
        : { kind: 'dm', key: dmKey(dmUserIds(message, this.selfId)) },
    );
    if (flags.some((f) => MENTION_FLAGS.includes(f))) this.mentions.add(message.id);
  }

  /** Read (or deleted): no longer counted. How many were unread. */
  remove(ids: readonly number[]): number {
    const before = this.changes;
    for (const id of ids) {
      // Only a real change counts: the server's read event for messages already marked read here
      // then leaves the cached counts alone.
      if (this.places.delete(id)) this.changes++;
      this.mentions.delete(id);
    }
    return this.changes - before;
  }

  removeAll(): void {
    this.changes++;
    this.places.clear();
    this.mentions.clear();
  }

  /** Messages moved to another topic or channel keep their unread state in the new place. */
  move(ids: readonly number[], streamId: number | undefined, topic: string | undefined): void {
    this.changes++;
    for (const id of ids) {
      const place = this.places.get(id);
      if (place?.kind !== 'channel') continue;
      this.places.set(id, { kind: 'channel', streamId: streamId ?? place.streamId, topic: topic ?? place.topic });
    }
  }

  has(id: number): boolean {
    return this.places.has(id);
  }

  /** The unread ids among `ids` (what to mark read when they are seen). */
  unreadAmong(ids: readonly number[]): number[] {
    return ids.filter((id) => this.places.has(id));
  }

  /**
   * Counts per channel, topic and conversation. `muted` says whether a topic is muted for the
   * reader (itself or by its channel): such messages are left out of the total, as Zulip's combined
   * feed leaves them out. A channel's own count leaves out only topics muted themselves (a muted
   * channel keeps its count, shown dimmed).
   */
  counts(muted: MuteTest = NOT_MUTED): UnreadCounts {
    const channels = new Map<number, number>();
    const topics = new Map<string, number>();
    const dms = new Map<string, number>();
    let total = 0;
    // Tallied per topic as spelled first (no key string per message): the mute tests then run once
    // per topic, not once per unread message (10,000 unread messages made every change cost tens of ms).
    const perStream = new Map<number, Map<string, number>>();
    for (const place of this.places.values()) {
      if (place.kind === 'dm') {
        dms.set(place.key, (dms.get(place.key) ?? 0) + 1);
        total++;
        continue;
      }
      let spelled = perStream.get(place.streamId);
      if (!spelled) perStream.set(place.streamId, (spelled = new Map()));
      spelled.set(place.topic, (spelled.get(place.topic) ?? 0) + 1);
    }
    for (const [streamId, spelled] of perStream) {
      for (const [topic, n] of spelled) {
        const key = topicKey(streamId, topic);
        topics.set(key, (topics.get(key) ?? 0) + n);
        if (!muted.topic(streamId, topic)) channels.set(streamId, (channels.get(streamId) ?? 0) + n);
        if (!muted.reader(streamId, topic)) total += n;
      }
    }
    return { channels, topics, dms, total, mentions: this.mentions.size };
  }

  /**
   * The unread conversations (topics and direct message conversations) with their counts, newest
   * unread message, and whether one mentions the reader: what the Inbox shows.
   */
  conversations(): UnreadConversation[] {
    const byKey = new Map<string, UnreadConversation>();
    for (const [id, place] of this.places) {
      const key = place.kind === 'dm' ? `d${place.key}` : `c${topicKey(place.streamId, place.topic)}`;
      let c = byKey.get(key);
      if (!c) {
        c = place.kind === 'dm'
          ? { kind: 'dm', key: place.key, userIds: place.key.split(',').map(Number), count: 0, newestId: 0, mentioned: false }
          : { kind: 'channel', streamId: place.streamId, topic: place.topic, count: 0, newestId: 0, mentioned: false };
        byKey.set(key, c);
      }
      c.count++;
      if (id > c.newestId) c.newestId = id;
      if (this.mentions.has(id)) c.mentioned = true;
    }
    return [...byKey.values()];
  }

  /**
   * The `n` key: the unread topic holding the oldest unread message, leaving out muted topics and
   * the topic being read (its messages become read as they are seen).
   */
  nextTopic(isMuted: (streamId: number, topic: string) => boolean, current?: { streamId: number; topic: string }): { streamId: number; topic: string } | undefined {
    const here = current && topicKey(current.streamId, current.topic);
    let best: { id: number; streamId: number; topic: string } | undefined;
    for (const [id, place] of this.places) {
      if (place.kind !== 'channel' || isMuted(place.streamId, place.topic)) continue;
      if (here === topicKey(place.streamId, place.topic)) continue;
      if (!best || id < best.id) best = { id, streamId: place.streamId, topic: place.topic };
    }
    return best && { streamId: best.streamId, topic: best.topic };
  }
}

/** Whether a topic is muted: for the reader (itself or by its channel), and by the topic's own policy. */
export interface MuteTest {
  reader(streamId: number, topic: string): boolean;
  topic(streamId: number, topic: string): boolean;
}

const NOT_MUTED: MuteTest = { reader: () => false, topic: () => false };

export type UnreadConversation =
  | { kind: 'channel'; streamId: number; topic: string; count: number; newestId: number; mentioned: boolean }
  | { kind: 'dm'; key: string; userIds: number[]; count: number; newestId: number; mentioned: boolean };

export interface UnreadCounts {
  channels: Map<number, number>;
  topics: Map<string, number>;
  dms: Map<string, number>;
  total: number;
  mentions: number;
}

/** Topics compare without case, as Zulip's do. */
export function topicKey(streamId: number, topic: string): string {
  return `${streamId}\u0000${topic.toLowerCase()}`;
}

/** The tab title: the unread count first, so that it shows in a narrow tab. */
export function documentTitle(total: number, place: string, realm: string): string {
  return `${total > 0 ? `(${total}) ` : ''}${place ? place + ' - ' : ''}${realm}`;
}
