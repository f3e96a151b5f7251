/**
 * Drafts synced across a user's clients: the record, the API's object, and the pure rules of
 * Zulip's further_validated_draft_dict (the shape itself is checked by the endpoint's schema).
 */
import { badRequest, ApiError } from './errors.js';
import { normalizeContent, pyStrip, truncateContent, TOPIC_TRUNCATION_MARK } from './topics.js';
import { settingOn } from './user-settings.js';
import type { UserRecord } from './users.js';
import { LIMITS } from './versions.js';

export type DraftType = '' | 'stream' | 'private';

export interface DraftRecord {
  id: number;
  type: DraftType;
  /** A channel draft: [channel id]; a direct one: the other participants (oneself alone for a note to self); unaddressed: []. */
  to: number[];
  topic: string;
  content: string;
  /** Unix seconds of the last edit. */
  timestamp: number;
}

/** A draft as a client sends it (already of the schema's shape). */
export interface DraftInput {
  type: DraftType;
  to: number[];
  topic: string;
  content: string;
  timestamp?: number | null;
}

/** Zulip's answer for an unknown draft and for another user's draft alike: 404, nothing revealed. */
export const draftMissing = () => new ApiError('BAD_REQUEST', 'Draft does not exist', 404);

/** Zulip's draft_endpoint: with drafts synchronization off, the drafts endpoints refuse. */
export function draftsSynchronized(user: UserRecord): boolean {
  return settingOn(user, 'enable_drafts_synchronization');
}

export function checkDraftsSynchronized(user: UserRecord): void {
  if (!draftsSynchronized(user)) throw badRequest('User has disabled synchronizing drafts.');
}

/**
 * The participants of a direct draft as Zulip's get_recipient_ids gives them back: a one-to-one
 * conversation (oneself included or not) names the other person, oneself alone names oneself,
 * a group names everyone but oneself, in id order.
 */
export function directDraftRecipients(userIds: readonly number[], selfId: number): number[] {
  const everyone = [...new Set([...userIds, selfId])].sort((a, b) => a - b);
  const others = everyone.filter((id) => id !== selfId);
  return others.length === 0 ? [selfId] : others;
}

/**
 * The text rules, in Zulip's order: content blank, content normalized as a message body (null
 * bytes refused, too long cut), timestamp not negative (absent: now), a channel draft's topic
 * cut to the topic length and without null bytes, exactly one channel. `name` is the parameter's
 * name for messages (`drafts[0]`, `draft`). Recipients are checked by the caller.
 */
export function draftText(input: DraftInput, name: string, nowSeconds: number): Pick<DraftRecord, 'topic' | 'content' | 'timestamp'> {
  if (pyStrip(input.content) === '') throw badRequest(`${name}["content"] cannot be blank`);
  const content = normalizeContent(pyStrip(input.content), LIMITS.maxMessageLength);
  const raw = input.timestamp ?? nowSeconds;
  if (raw < 0) throw badRequest('Timestamp must not be negative.');
  let topic = '';
  if (input.type === 'stream') {
    topic = truncateContent(input.topic, LIMITS.maxTopicLength, TOPIC_TRUNCATION_MARK);
    if (topic.includes('\0')) throw badRequest('Topic must not contain null bytes');
    if (input.to.length !== 1) throw badRequest('Must specify exactly 1 channel ID for channel messages');
  }
  return { topic, content, timestamp: Math.floor(raw) };
}

/** The API's draft object (GET /drafts, `drafts` events, register). */
export function draftObject(draft: DraftRecord): Record<string, unknown> {
  return { id: draft.id, type: draft.type, to: draft.to, topic: draft.topic, content: draft.content, timestamp: draft.timestamp };
}

/** Oldest edit first (GET /drafts), ties by id. */
export const byEditTime = (a: DraftRecord, b: DraftRecord) => a.timestamp - b.timestamp || a.id - b.id;
