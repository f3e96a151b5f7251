/**
 * The rules of an edit request, before anything is read from the store: what changes (content,
 * topic, channel), whether the request makes sense, and whether this user may make it now.
 * Pure: the caller passes the facts (the message, the realm, the target channel, the time).
 */
import { createHash } from 'node:crypto';
import type { ChannelRecord } from './channel-record.js';
import { ApiError, badRequest } from './errors.js';
import type { GroupLookup } from './groups.js';
import type { MessageRecord } from './messages.js';
import { mayAlterMessageIn, mayEditContent, mayEditTopic, mayMoveToChannel, refusalError, type Refusal } from './permissions.js';
import { EMPTY_TOPIC_DISPLAY_NAME, type RealmRecord } from './realm.js';
import { normalizeContent, normalizeTopic, RESOLVED_TOPIC_PREFIX, topicResolutionChange } from './topics.js';
import type { UserRecord } from './users.js';
import { LIMITS } from './versions.js';

export type PropagateMode = 'change_one' | 'change_later' | 'change_all';

export interface EditRequest {
  content?: string;
  topic?: string;
  streamId?: number;
  propagateMode: PropagateMode;
  notifyOldThread: boolean;
  notifyNewThread: boolean;
  prevContentSha256?: string;
}

/** What the edit changes; everything else stays. */
export interface EditPlan {
  content?: string;
  newTopic?: string;
  newChannel?: ChannelRecord;
  resolution?: 'resolved' | 'unresolved';
}

export interface EditFacts {
  user: UserRecord;
  record: MessageRecord;
  /** The message's channel (undefined for a direct message). */
  channel: ChannelRecord | undefined;
  realm: RealmRecord;
  groups: GroupLookup;
  /** Unix seconds. */
  now: number;
  /** The channel a move asks for, and whether the user (or a bot's owner) is subscribed to it. */
  target(channelId: number): { channel: ChannelRecord | undefined; subscribed: boolean; ownerSubscribed: boolean };
}

const refuse = (refusal: Refusal | null) => {
  if (refusal) throw refusalError(refusal);
};

/** Checks an edit request in Zulip's order and returns what it changes, or throws its error. */
export function planEdit(request: EditRequest, facts: EditFacts): EditPlan {
  const { user, record, realm } = facts;
  refuse(mayAlterMessageIn(facts.channel));
  if (request.content !== undefined) refuse(mayEditContent(user, record, realm, facts.now));
  let newTopic: string | undefined;
  if (request.topic !== undefined) {
    newTopic = normalizeTopic(request.topic, { maxLength: LIMITS.maxTopicLength, emptyTopicDisplayName: EMPTY_TOPIC_DISPLAY_NAME });
    // As Zulip: the current topic (a direct message's is '') is no change.
    if (newTopic === (record.topic ?? '')) newTopic = undefined;
  }
  const streamId = record.type === 'stream' && request.streamId === record.channelId ? undefined : request.streamId;
  if (request.content === undefined && newTopic === undefined && streamId === undefined) throw badRequest('Nothing to change');
  if (record.type === 'private' && streamId !== undefined) throw badRequest('Direct messages cannot be moved to channels.');
  if (record.type === 'private' && newTopic !== undefined) throw badRequest('Direct messages cannot have topics.');
  if (request.propagateMode !== 'change_one' && newTopic === undefined && streamId === undefined) {
    throw badRequest('Invalid propagate_mode without topic edit');
  }
  if (newTopic !== undefined && (newTopic === RESOLVED_TOPIC_PREFIX.trim() || newTopic === RESOLVED_TOPIC_PREFIX + EMPTY_TOPIC_DISPLAY_NAME)) {
    throw badRequest('General chat cannot be marked as resolved');
  }
  if (streamId !== undefined && request.content !== undefined) throw badRequest('Cannot change message content while changing channel');
  if (request.content !== undefined && (record.submessages?.length ?? 0) > 0) throw badRequest('Widgets cannot be edited.');
  if (request.prevContentSha256 !== undefined && request.prevContentSha256 !== createHash('sha256').update(record.content).digest('hex')) {
    throw new ApiError('EXPECTATION_MISMATCH', "'prev_content_sha256' value does not match the expected value.", 400, { field_name: 'prev_content_sha256' });
  }
  const plan: EditPlan = {};
  if (request.content !== undefined) {
    plan.content = normalizeContent(request.content.trim() === '' ? '(deleted)' : request.content, LIMITS.maxMessageLength);
  }
  if (newTopic !== undefined) {
    plan.newTopic = newTopic;
    plan.resolution = topicResolutionChange(record.topic!, newTopic);
    refuse(mayEditTopic(user, record, realm, facts.groups, facts.now, plan.resolution));
  }
  if (streamId !== undefined) {
    const target = facts.target(streamId);
    refuse(mayMoveToChannel(user, record, target.channel, realm, facts.groups, facts.now, target));
    plan.newChannel = target.channel;
  }
  return plan;
}
