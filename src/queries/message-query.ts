/**
 * Running a narrow for a user: the anchor, the index range to walk (the most selective term
 * picks it: a topic's, a channel's, a conversation's, the user's unread or starred …), the
 * access rules (history mode for channels the user may read back), and the filters of the
 * remaining terms. Only the ranges' keys and the candidate messages are read.
 */
import { VisibilityPolicy } from '../domain/topic-visibility.js';
import { badRequest } from '../domain/errors.js';
import { Flag, HISTORICAL_FLAGS, LARGER_THAN_MAX_MESSAGE_ID, MENTION_BITS, conversationKey, type MessageRecord } from '../domain/messages.js';
import { matchesSearch, parseSearch, type SearchQuery, type Term } from '../domain/narrow.js';
import { isGuest } from '../domain/roles.js';
import { RESOLVED_TOPIC_PREFIX, topicKey } from '../domain/topics.js';
import type { UserRecord } from '../domain/users.js';
import { LIMITS } from '../domain/versions.js';
import type { MessageRange } from '../store/messages.js';
import type { Services } from '../services.js';
import { channelHistoryReadable, channelReadable } from './channel-access.js';
import { messageFlags, unreadCandidatesRange, userMessagesRange } from './message-state.js';

export interface Found {
  record: MessageRecord;
  flags: number;
}

export interface RangeRequest {
  anchor: number | 'first_unread';
  numBefore: number;
  numAfter: number;
  includeAnchor: boolean;
}

export interface RangeResult {
  messages: Found[];
  anchor: number;
  foundAnchor: boolean;
  foundOldest: boolean;
  foundNewest: boolean;
}

/** Zulip's anchor values: `newest`, `oldest`, `first_unread`, or a message id (clamped). */
export function parseAnchor(value: string | undefined, useFirstUnread: boolean): number | 'first_unread' {
  if (useFirstUnread) return 'first_unread';
  if (value === undefined) throw badRequest("Missing 'anchor' argument.");
  if (value === 'newest') return LARGER_THAN_MAX_MESSAGE_ID;
  if (value === 'oldest') return 0;
  if (value === 'first_unread') return 'first_unread';
  if (!/^-?\d+$/.test(value.trim())) throw badRequest('Invalid anchor');
  return Math.min(Math.max(Number(value), 0), LARGER_THAN_MAX_MESSAGE_ID);
}

interface Plan {
  /** The index range to walk; undefined: nothing can match. */
  range: MessageRange | undefined;
  /** Messages the user never received may be shown (with historical flags). */
  history: boolean;
  /** The range holds one of the user's own rows (flags exist for every id in it). */
  ownRange: boolean;
}

export class MessageQuery {
  private readonly search: SearchQuery | undefined;
  private readonly plan: Plan;

  constructor(
    private readonly services: Services,
    private readonly viewer: UserRecord,
    private readonly terms: readonly Term[],
  ) {
    const searchTerms = terms.filter((t) => t.kind === 'search' && !t.negated);
    this.search = searchTerms.length ? parseSearch(searchTerms.map((t) => (t as { query: string }).query).join(' ')) : undefined;
    this.plan = this.choosePlan();
  }

  private positive<K extends Term['kind']>(kind: K): Extract<Term, { kind: K }> | undefined {
    return this.terms.find((t) => t.kind === kind && !t.negated) as Extract<Term, { kind: K }> | undefined;
  }

  private choosePlan(): Plan {
    const userId = this.viewer.id;
    const channel = this.positive('channel');
    const topic = this.positive('topic');
    const channels = this.positive('channels');
    const isTerms = this.terms.filter((t) => t.kind === 'is' && t.what !== 'resolved');
    const channelRecord = channel ? this.services.org.channels.get(channel.channelId) : undefined;
    const history = isTerms.length === 0 && (
      (channelRecord !== undefined && channelHistoryReadable(this.services, this.viewer, channelRecord)) ||
      (channels !== undefined && !isGuest(this.viewer.role))
    );
    const is = (what: string) => this.terms.find((t) => t.kind === 'is' && t.what === what && !t.negated);
    const dm = this.positive('dm');
    const sender = this.positive('sender');
    if (channel && topic) return { range: { of: 'topic', channelId: channel.channelId, topicKey: topicKey(topic.topic) }, history, ownRange: false };
    if (channel) return { range: { of: 'channel', channelId: channel.channelId }, history, ownRange: false };
    if (dm) return { range: dm.key === undefined ? undefined : { of: 'conversation', conversation: dm.key }, history: false, ownRange: false };
    if (is('unread')) return { range: unreadCandidatesRange(this.services, userId), history: false, ownRange: true };
    if (is('starred')) return { range: { of: 'starred', userId }, history: false, ownRange: true };
    if (is('mentioned')) return { range: { of: 'mentioned', userId }, history: false, ownRange: true };
    if (channels && history) return { range: { of: 'all' }, history, ownRange: false };
    if (sender) return { range: { of: 'sender', userId: sender.userId }, history: false, ownRange: false };
    return { range: userMessagesRange(this.services, userId), history: false, ownRange: true };
  }

  /** The message with the user's flags if the user may see it and it matches every term. */
  candidate(id: number): Found | undefined {
    const { messages } = this.services;
    const record = messages.get(id);
    if (!record) return undefined;
    let flags = messageFlags(this.services, this.viewer.id, record);
    if (!this.visible(record, flags)) return undefined;
    flags ??= HISTORICAL_FLAGS;
    for (const term of this.terms) if (this.matches(term, record, flags) === term.negated) return undefined;
    return { record, flags };
  }

  private visible(record: MessageRecord, flags: number | undefined): boolean {
    if (record.type === 'private') return flags !== undefined;
    const channel = this.services.org.channels.get(record.channelId!);
    if (!channel) return false;
    if (flags !== undefined) return channelReadable(this.services, this.viewer, channel);
    return this.plan.history && channelHistoryReadable(this.services, this.viewer, channel);
  }

  private matches(term: Term, record: MessageRecord, flags: number): boolean {
    const { subscriptions } = this.services;
    switch (term.kind) {
      case 'channel':
        return record.type === 'stream' && record.channelId === term.channelId;
      case 'channels': {
        if (record.type !== 'stream') return false;
        const channel = this.services.org.channels.get(record.channelId!);
        return channel !== undefined && (term.which === 'web-public' ? channel.isWebPublic : !channel.inviteOnly && channel.historyPublicToSubscribers);
      }
      case 'topic':
        return record.type === 'stream' && topicKey(record.topic!) === topicKey(term.topic);
      case 'sender':
        return record.senderId === term.userId;
      case 'dm':
        return record.type === 'private' && term.key !== undefined && conversationKey(record.dmUserIds!) === term.key;
      case 'dm-including':
        return record.type === 'private' && record.dmUserIds!.includes(term.userId);
      case 'group-dm-with':
        return record.type === 'private' && record.dmUserIds!.length > 2 && record.dmUserIds!.includes(term.userId);
      case 'is':
        switch (term.what) {
          case 'dm':
            return record.type === 'private';
          case 'starred':
            return (flags & Flag.starred) !== 0;
          case 'unread':
            return (flags & Flag.read) === 0;
          case 'mentioned':
            return (flags & MENTION_BITS) !== 0;
          case 'alerted':
            return (flags & Flag.has_alert_word) !== 0;
          case 'resolved':
            return record.type === 'stream' && record.topic!.startsWith(RESOLVED_TOPIC_PREFIX);
          case 'followed':
            return record.type === 'stream' && subscriptions.topicPolicy(this.viewer.id, record.channelId!, topicKey(record.topic!)) === VisibilityPolicy.FOLLOWED;
          case 'muted':
            return this.muted(record);
        }
        return false;
      case 'has':
        switch (term.what) {
          case 'link':
            return record.renderedContent.includes('<a ');
          case 'image':
            return record.renderedContent.includes('<img') && !record.renderedContent.includes('class="emoji"');
          case 'attachment':
            return record.content.includes('/user_uploads/');
          case 'reaction':
            return record.reactions.length > 0;
        }
        return false;
      case 'in':
        return term.what === 'all' || !this.muted(record);
      case 'id':
        return record.id === term.id;
      case 'search':
        return matchesSearch(term.negated ? parseSearch(term.query) : this.search!, searchableText(record));
      case 'with':
        return true;
    }
  }

  /** In a muted channel (unless the topic is unmuted or followed) or a muted topic. */
  muted(record: MessageRecord): boolean {
    if (record.type !== 'stream') return false;
    const { subscriptions } = this.services;
    const policy = subscriptions.topicPolicy(this.viewer.id, record.channelId!, topicKey(record.topic!));
    if (policy === VisibilityPolicy.MUTED) return true;
    if (policy === VisibilityPolicy.UNMUTED || policy === VisibilityPolicy.FOLLOWED) return false;
    return subscriptions.subscription(this.viewer.id, record.channelId!)?.isMuted ?? false;
  }

  /** Walks the chosen range from `from` in one direction, yielding matching messages. */
  async *walk(reverse: boolean, from: number | undefined, inclusive: boolean, expected?: number): AsyncGenerator<Found> {
    const idTerm = this.positive('id');
    if (idTerm) {
      const inRange = from === undefined || (reverse ? (inclusive ? idTerm.id <= from : idTerm.id < from) : inclusive ? idTerm.id >= from : idTerm.id > from);
      const found = inRange ? this.candidate(idTerm.id) : undefined;
      if (found) yield found;
      return;
    }
    if (this.plan.range === undefined) return;
    for await (const id of this.services.messages.ids(this.plan.range, { reverse, from, inclusive, expected })) {
      const found = this.candidate(id);
      if (found) yield found;
    }
  }

  /**
   * The oldest unread message in the narrow, outside muted channels and topics (unless a DM
   * narrow), or undefined. The candidate range holds every unread message but also read ones
   * (rows read ahead of the mark, the sender's own messages), so each one's flags decide.
   */
  async firstUnread(): Promise<number | undefined> {
    const dmNarrow = this.terms.some((t) => !t.negated && (t.kind === 'dm' || (t.kind === 'is' && t.what === 'dm')));
    for await (const id of this.services.messages.ids(unreadCandidatesRange(this.services, this.viewer.id), { reverse: false })) {
      const found = this.candidate(id);
      if (found && (found.flags & Flag.read) === 0 && (dmNarrow || !this.muted(found.record))) return id;
    }
    return undefined;
  }

  async range(request: RangeRequest): Promise<RangeResult> {
    const anchor = request.anchor === 'first_unread' ? ((await this.firstUnread()) ?? LARGER_THAN_MAX_MESSAGE_ID) : request.anchor;
    const anchoredLeft = anchor === 0;
    const anchoredRight = anchor >= LARGER_THAN_MAX_MESSAGE_ID;
    const numAfter = anchoredRight ? 0 : request.numAfter;
    const before: Found[] = [];
    if (request.numBefore > 0) {
      for await (const found of this.walk(true, anchor, false, request.numBefore)) {
        before.push(found);
        if (before.length >= request.numBefore) break;
      }
      before.reverse();
    }
    let anchorRow: Found | undefined;
    const after: Found[] = [];
    if (request.includeAnchor || numAfter > 0) {
      for await (const found of this.walk(false, anchor, true, numAfter + 1)) {
        if (found.record.id === anchor) {
          if (request.includeAnchor) anchorRow = found;
          if (numAfter === 0) break;
          continue;
        }
        if (after.length >= numAfter) break;
        after.push(found);
        if (after.length >= numAfter) break;
      }
    }
    return {
      messages: anchorRow ? [...before, anchorRow, ...after] : [...before, ...after],
      anchor,
      foundAnchor: anchorRow !== undefined,
      foundOldest: anchoredLeft || before.length < request.numBefore,
      foundNewest: anchoredRight || after.length < numAfter,
    };
  }
}

/** Checks Zulip's limits on a range request. */
export function checkRange(numBefore: number, numAfter: number, includeAnchor: boolean): void {
  if (numBefore + numAfter > LIMITS.maxMessagesPerFetch) throw badRequest(`Too many messages requested (maximum ${LIMITS.maxMessagesPerFetch}).`);
  if (numBefore > 0 && numAfter > 0 && !includeAnchor) throw badRequest('The anchor can only be excluded at an end of the range');
}

/** The words search looks at: the message text without markup, and the topic. */
export function searchableText(record: MessageRecord): string {
  return `${record.content} ${record.topic ?? ''}`;
}
