/**
 * Running a narrow for a user: the anchor, the index range to walk (the most selective term
 * picks it: a topic's, a channel's, a conversation's, the user's unread or starred …), the
 * access rules (history mode for channels the user may read back), and the filters of the
 * remaining terms. Only the ranges' keys and the candidate messages are read.
 */
import { badRequest } from '../domain/errors.js';
import { Flag, HISTORICAL_FLAGS, LARGER_THAN_MAX_MESSAGE_ID, type MessageRecord } from '../domain/messages.js';
import type { Term } from '../domain/narrow.js';
import { messageMuted, narrowMatches, type NarrowReader } from '../domain/narrow-predicate.js';
import { isGuest } from '../domain/roles.js';
import { topicKey } from '../domain/topics.js';
import type { UserRecord } from '../domain/users.js';
import { LIMITS } from '../domain/versions.js';
import type { MessageRange } from '../store/messages.js';
import type { Services } from '../services.js';
import { channelHistoryReadable, channelReadable } from './channel-access.js';
import { messageFlags, unreadCandidatesRange, userMessagesRange } from './message-state.js';
import { negatedQuery, recordMatches, searchCandidates, searchPlan, type SearchPlan } from './search-walk.js';

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
  /** The positive `search` operands, when there are any: the walk then follows the full-text index. */
  readonly search: SearchPlan | undefined;
  private readonly plan: Plan;
  /** What the narrow predicate asks about this viewer. */
  private readonly reader: NarrowReader;
  /** The terms but the positive `search` ones, for messages the full-text index found. */
  private readonly termsButSearch: readonly Term[];

  constructor(
    private readonly services: Services,
    private readonly viewer: UserRecord,
    private readonly terms: readonly Term[],
  ) {
    this.plan = this.choosePlan();
    // Without history, only messages the viewer holds are visible (see `visible`).
    this.search = searchPlan(services, terms, viewer.id, !this.plan.history);
    const { subscriptions, org } = services;
    const viewerId = viewer.id;
    this.reader = {
      topicPolicy: (channelId, key) => subscriptions.topicPolicy(viewerId, channelId, key),
      channelMuted: (channelId) => subscriptions.subscription(viewerId, channelId)?.isMuted ?? false,
      channel: (channelId) => org.channels.get(channelId),
      matchesSearch: (term, message) => recordMatches(services, term.negated ? negatedQuery(services, term.query) : this.search!.recordQuery, message),
    };
    this.termsButSearch = terms.filter((t) => t.kind !== 'search' || t.negated);
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

  /**
   * The message with the user's flags if the user may see it and it matches every term;
   * `searchMatched`: the full-text index already found it for the positive `search` operands.
   */
  candidate(id: number, searchMatched = false): Found | undefined {
    const { messages } = this.services;
    const record = messages.get(id);
    if (!record) return undefined;
    let flags = messageFlags(this.services, this.viewer.id, record);
    if (!this.visible(record, flags)) return undefined;
    flags ??= HISTORICAL_FLAGS;
    if (!narrowMatches(searchMatched ? this.termsButSearch : this.terms, record, flags, this.reader)) return undefined;
    return { record, flags };
  }

  private visible(record: MessageRecord, flags: number | undefined): boolean {
    if (record.type === 'private') return flags !== undefined;
    const channel = this.services.org.channels.get(record.channelId!);
    if (!channel) return false;
    if (flags !== undefined) return channelReadable(this.services, this.viewer, channel);
    return this.plan.history && channelHistoryReadable(this.services, this.viewer, channel);
  }

  /** In a muted channel (unless the topic is unmuted or followed) or a muted topic. */
  muted(record: MessageRecord): boolean {
    return messageMuted(record, this.reader);
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
    if (this.search) {
      for await (const { id, trusted } of searchCandidates(this.services, this.search, this.plan.range, { reverse, from, inclusive, expected })) {
        const found = this.candidate(id, trusted);
        if (found) yield found;
      }
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
