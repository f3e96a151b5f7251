/** Message records, per-user message flags as a bitfield, and their API names. */
import type { SubmessageRecord } from './widgets.js';

export interface ReactionRecord {
  emojiName: string;
  emojiCode: string;
  reactionType: 'unicode_emoji' | 'realm_emoji' | 'zulip_extra_emoji';
  userId: number;
}

/** One stored edit, newest first in a record's history (as Zulip stores it). */
export interface EditRecord {
  userId: number;
  timestamp: number;
  prevContent?: string;
  prevRenderedContent?: string;
  prevTopic?: string;
  topic?: string;
  prevStream?: number;
  stream?: number;
}

export interface MessageRecord {
  id: number;
  senderId: number;
  type: 'stream' | 'private';
  /** Channel messages: the channel and topic ('' is the empty topic). */
  channelId?: number;
  topic?: string;
  /** The channel's recipient id, or the conversation's (a user's personal one for 1:1, a group's). */
  recipientId: number;
  /** Direct messages: every participant, sender included, sorted by id. */
  dmUserIds?: number[];
  content: string;
  renderedContent: string;
  /** Unix seconds. */
  timestamp: number;
  client: string;
  /**
   * Users who hold a per-user row (flags) of this message. For a channel message delivered by
   * reception intervals that is only those with a flag to keep (mentions, stars, historical
   * records…), not every recipient: see "Per-user message state" in docs/architecture.md.
   */
  userIds: number[];
  /** A channel message moved between channels: its holders are exactly those with rows. */
  explicit?: true;
  reactions: ReactionRecord[];
  editHistory: EditRecord[];
  /** Widget submessages (polls, todo lists), oldest first; absent when there are none. */
  submessages?: SubmessageRecord[];
}

/**
 * Per-user flags, in Zulip's bit order (which is also the order flags are listed in). The
 * last two are internal: `is_private` lets a user's index answer `is:dm` without reading
 * messages.
 */
export const FLAG_NAMES = [
  'read',
  'starred',
  'collapsed',
  'mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned',
  'group_mentioned',
  'force_expand',
  'force_collapse',
  'has_alert_word',
  'historical',
  'is_private',
  'active_mobile_push_notification',
] as const;

export type FlagName = (typeof FLAG_NAMES)[number];

export const Flag = Object.fromEntries(FLAG_NAMES.map((name, bit) => [name, 1 << bit])) as Record<FlagName, number>;

const API_FLAG_COUNT = FLAG_NAMES.indexOf('is_private');

/** Flags that clients may change with POST /messages/flags. */
export const EDITABLE_FLAGS: readonly FlagName[] = ['read', 'starred', 'collapsed'];

/** Flags a client may name (the API flags); the rest are internal. */
export const API_FLAGS: readonly FlagName[] = FLAG_NAMES.slice(0, API_FLAG_COUNT);

export const MENTION_BITS = Flag.mentioned | Flag.stream_wildcard_mentioned | Flag.topic_wildcard_mentioned | Flag.group_mentioned;

const flagListCache = new Map<number, readonly string[]>();

/** The API list for a bitfield: names in bit order, then the legacy `wildcard_mentioned`. */
export function flagList(bits: number): readonly string[] {
  let list = flagListCache.get(bits);
  if (!list) {
    const names: string[] = [];
    for (let bit = 0; bit < API_FLAG_COUNT; bit++) if (bits & (1 << bit)) names.push(FLAG_NAMES[bit]);
    if (bits & (Flag.stream_wildcard_mentioned | Flag.topic_wildcard_mentioned)) names.push('wildcard_mentioned');
    list = Object.freeze(names);
    flagListCache.set(bits, list);
  }
  return list;
}

/** Flags of a message the user can see but never received (public channel history). */
export const HISTORICAL_FLAGS = Flag.read | Flag.historical;

export const isMeMessage = (content: string) => content.startsWith('/me ');

/** The key of a direct-message conversation: its participants' ids, sorted, comma-joined. */
export function conversationKey(userIds: readonly number[]): string {
  return [...new Set(userIds)].sort((a, b) => a - b).join(',');
}

/** The highest possible message id, used as the `newest` anchor. */
export const LARGER_THAN_MAX_MESSAGE_ID = 10000000000000000;
